"""mqctl: model, validate and explain IBM MQ and TIBCO EMS publish/subscribe topologies."""

__version__ = "0.1.0"
