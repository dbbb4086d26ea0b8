"""MQSC words: verbs and object types with their documented synonyms, and the parameters mqctl knows.

Synonyms are whole words, never prefixes (IBM: "DEFI is not a valid synonym for DEFINE").
``DEL`` for DELETE is accepted although runmqsc documents no synonym for DELETE.
"""

from __future__ import annotations

from mqctl.domain.objects import attributes

VERBS: dict[str, str] = {
    "DEFINE": "DEFINE",
    "DEF": "DEFINE",
    "ALTER": "ALTER",
    "ALT": "ALTER",
    "DELETE": "DELETE",
    "DEL": "DELETE",
    "DISPLAY": "DISPLAY",
    "DIS": "DISPLAY",
    "START": "START",
    "STA": "START",
    "STOP": "STOP",
    "REFRESH": "REFRESH",
    "REF": "REFRESH",
    "RESET": "RESET",
    "RESOLVE": "RESOLVE",
    "RESUME": "RESUME",
    "SUSPEND": "SUSPEND",
    "CLEAR": "CLEAR",
    "PING": "PING",
    "SET": "SET",
    "PURGE": "PURGE",
    "RECOVER": "RECOVER",
    "BACKUP": "BACKUP",
    "ARCHIVE": "ARCHIVE",
    "RVERIFY": "RVERIFY",
    "MOVE": "MOVE",
    "END": "END",
}

NOUNS: dict[str, str] = {
    "TOPIC": "TOPIC",
    "SUB": "SUB",
    "SUBSCRIPTION": "SUB",
    "NAMELIST": "NAMELIST",
    "NL": "NAMELIST",
    "CHANNEL": "CHANNEL",
    "CHL": "CHANNEL",
    "QMGR": "QMGR",
    "QLOCAL": "QLOCAL",
    "QL": "QLOCAL",
    "QREMOTE": "QREMOTE",
    "QR": "QREMOTE",
    "QALIAS": "QALIAS",
    "QA": "QALIAS",
    "QMODEL": "QMODEL",
    "QM": "QMODEL",
    "QUEUE": "QUEUE",
    "Q": "QUEUE",
    "LISTENER": "LISTENER",
    "LSTR": "LISTENER",
    "SERVICE": "SERVICE",
    "SVC": "SERVICE",
    "PROCESS": "PROCESS",
    "PRO": "PROCESS",
    "AUTHINFO": "AUTHINFO",
    "COMMINFO": "COMMINFO",
    "CHLAUTH": "CHLAUTH",
    "AUTHREC": "AUTHREC",
    "AUTHSERV": "AUTHSERV",
    "SECURITY": "SECURITY",
    "CLUSQMGR": "CLUSQMGR",
    "TCLUSTER": "TCLUSTER",
    "CLUSTER": "CLUSTER",
    "CHSTATUS": "CHSTATUS",
    "CHS": "CHSTATUS",
    "QSTATUS": "QSTATUS",
    "QS": "QSTATUS",
    "LSSTATUS": "LSSTATUS",
    "SVSTATUS": "SVSTATUS",
    "SBSTATUS": "SBSTATUS",
    "TPSTATUS": "TPSTATUS",
    "PUBSUB": "PUBSUB",
    "QMSTATUS": "QMSTATUS",
    "CONN": "CONN",
    "ENTAUTH": "ENTAUTH",
    "POLICY": "POLICY",
    "LOG": "LOG",
    "SYSTEM": "SYSTEM",
    "ARCHIVE": "ARCHIVE",
    "CHINIT": "CHINIT",
    "CMDSERV": "CMDSERV",
    "TRACE": "TRACE",
    "THREAD": "THREAD",
    "STGCLASS": "STGCLASS",
    "STC": "STGCLASS",
    "CFSTRUCT": "CFSTRUCT",
    "CFSTATUS": "CFSTATUS",
    "BUFFPOOL": "BUFFPOOL",
    "PSID": "PSID",
    "SMDS": "SMDS",
    "SMDSCONN": "SMDSCONN",
    "GROUP": "GROUP",
    "USAGE": "USAGE",
    "MAXSMSGS": "MAXSMSGS",
    "APSTATUS": "APSTATUS",
    "AMQPSTATUS": "AMQPSTATUS",
}

MODELLED_NOUNS = frozenset({"TOPIC", "SUB", "NAMELIST", "CHANNEL", "QMGR"})
"""Object types mqctl applies to its model (channels only with CHLTYPE CLUSRCVR/CLUSSDR)."""

DISPLAYED_NOUNS = MODELLED_NOUNS | {"TCLUSTER", "CLUSQMGR"}
"""Object types DISPLAY answers from the model (cluster topics and queue managers as one queue manager
knows them, see ``cluster_info``)."""

STRICT_VERBS = frozenset({"DEFINE", "ALTER", "DELETE", "DISPLAY"})
"""Verbs whose object type must be known (others are skipped as not modelled whatever their noun)."""

COMMON = frozenset({"CMDSCOPE", "QSGDISP", "LIKE", "REPLACE", "NOREPLACE"})

TOPIC_MODELLED = attributes.keywords(attributes.TOPIC)
TOPIC_IGNORED = frozenset(
    {
        "TYPE",
        "NPMSGDLV",
        "PMSGDLV",
        "DEFPSIST",
        "DEFPRTY",
        "DEFPRESP",
        "DURSUB",
        "MDURMDL",
        "MNDURMDL",
        "MCAST",
        "COMMINFO",
        "USEDLQ",
        "CUSTOM",
        "CAPEXPRY",
        "ALTDATE",
        "ALTTIME",
        "TOPICTYPE",
    }
)

SUB_MODELLED = attributes.keywords(attributes.SUB)
SUB_IGNORED = frozenset(
    {
        "DESTCLAS",
        "DESTCORL",
        "PUBACCT",
        "PUBAPPID",
        "PUBPRTY",
        "PSPROP",
        "REQONLY",
        "SUBLEVEL",
        "SUBUSER",
        "USERDATA",
        "VARUSER",
        "EXPIRY",
        "SUBID",
        "SUBTYPE",
        "DURABLE",
        "SELTYPE",
    }
)

NAMELIST_MODELLED = attributes.keywords(attributes.NAMELIST)
NAMELIST_IGNORED = frozenset({"NLTYPE", "TYPE"})

CHANNEL_MODELLED = attributes.keywords(attributes.CHANNEL)
CHANNEL_IGNORED = frozenset(
    {
        "TRPTYPE",
        "SHORTRTY",
        "SHORTTMR",
        "LONGRTY",
        "LONGTMR",
        "MCAUSER",
        "SSLCIPH",
        "SSLCAUTH",
        "SSLPEER",
        "HBINT",
        "BATCHSZ",
        "DISCINT",
        "NETPRTY",
        "MAXMSGL",
        "MCANAME",
        "MCATYPE",
        "MRDATA",
        "MREXIT",
        "MRRTY",
        "MRTMR",
        "MSGDATA",
        "MSGEXIT",
        "NPMSPEED",
        "PROPCTL",
        "PUTAUT",
        "RCVDATA",
        "RCVEXIT",
        "SCYDATA",
        "SCYEXIT",
        "SENDDATA",
        "SENDEXIT",
        "SEQWRAP",
        "STATCHL",
        "MONCHL",
        "COMPHDR",
        "COMPMSG",
        "KAINT",
        "LOCLADDR",
        "BATCHHB",
        "BATCHINT",
        "BATCHLIM",
        "CERTLABL",
        "DEFCDISP",
        "SHARECNV",
        "MAXINST",
        "MAXINSTC",
        "XMITQ",
        "CONVERT",
        "USEDLQ",
        "TPNAME",
        "MODENAME",
        "AFFINITY",
        "CLNTWGHT",
        "QMNAME",
        "TOPROOT",
        "SPLPROT",
        "RESETSEQ",
        "MCASTAT",
        "PORT",
        "USECLTID",
        "AMQPKA",
        "TMPMODEL",
        "TMPQPRFX",
        "CHLDISP",
        "DEFRECON",
        "PASSWORD",
        "USERID",
        "SSLKEYR",
        "STATACLS",
    }
)

QMGR_MODELLED = attributes.keywords(attributes.NODE) | {"REPOS", "REPOSNL"}
"""REPOS and REPOSNL give memberships (``domain.memberships``), not attributes of the node."""

TOPIC_ORDER = (
    "TOPICSTR",
    "DESCR",
    "CLUSTER",
    "CLROUTE",
    "PUB",
    "SUB",
    "PUBSCOPE",
    "SUBSCOPE",
    "PROXYSUB",
    "WILDCARD",
)
"""The order in which dmpmqcfg writes a topic object's attributes and DISPLAY TOPIC shows them (the
same): the MQSC writer's and DISPLAY's layout of the attribute table (``attributes.laid_out``)."""
QMGR_ORDER = ("DESCR", "PARENT", "PSMODE", "PSCLUS")
"""The same for a queue manager (dmpmqcfg's ALTER QMGR, DISPLAY QMGR), of the attributes mqctl models."""

DISPLAY_OPTIONS = frozenset(
    {
        "ALL",
        "TYPE",
        "WHERE",
        "CMDSCOPE",
        "QSGDISP",
        "CHLTYPE",
        "TOPICSTR",
        "CLUSINFO",
        "SUMMARY",
        "DURABLE",
        "SUBTYPE",
        "NLTYPE",
        "SUBID",
    }
)
"""DISPLAY parameters that select rather than name an attribute (attribute names are also accepted)."""

DELETE_KEYWORDS: dict[str, frozenset[str]] = {
    "TOPIC": frozenset({"CMDSCOPE", "QSGDISP", "AUTHREC"}),
    "SUB": frozenset({"CMDSCOPE", "SUBID"}),
    "NAMELIST": frozenset({"CMDSCOPE", "QSGDISP"}),
    "CHANNEL": frozenset({"CMDSCOPE", "QSGDISP", "CHLTABLE"}),
}
"""What DELETE takes after each modelled object type."""

IGNORED: dict[str, frozenset[str]] = {
    "TOPIC": TOPIC_IGNORED,
    "SUB": SUB_IGNORED,
    "NAMELIST": NAMELIST_IGNORED,
    "CHANNEL": CHANNEL_IGNORED,
}
"""Attributes accepted on modelled objects but not modelled: counted and named in the summary."""

AS_MODELLED: dict[tuple[str, str], frozenset[str]] = {
    ("TOPIC", "TYPE"): frozenset({"LOCAL"}),
    ("SUB", "DESTCLAS"): frozenset({"MANAGED", "PROVIDED"}),  # when it agrees with DEST (values.py)
}
"""Ignored attributes whose value says what the model is anyway: read without a word (``export mqsc``
writes ``TYPE(LOCAL)`` on every topic object, as dmpmqcfg does, and every topic object mqctl models is
a local definition), and ``DESTCLAS`` that agrees with DEST (MANAGED without one: ``export mqsc`` writes it
so, for a queue manager refuses a subscription with neither). Any other value is counted as not modelled."""
