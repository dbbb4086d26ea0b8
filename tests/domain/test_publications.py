"""Publication log rows typed for routing, and routing keys that keep exactly what selectors read."""

from __future__ import annotations

import pytest

from mqctl.domain.errors import InputError
from mqctl.domain.messages import JmsValue, Message
from mqctl.domain.publications import (
    decode_key,
    parse_properties,
    routing_key,
    selector_identifiers,
    to_publication,
)
from mqctl.domain.routing import explain
from tests.domain import ems_builders as ems
from tests.domain import mq_builders as mq


def test_json_values_take_their_jms_types() -> None:
    props, headers = parse_properties('{"a": 1, "b": 2.5, "c": "x", "d": true, "e": 3000000000, "f": null}')
    assert props == {
        "a": JmsValue("int", 1),
        "b": JmsValue("double", 2.5),
        "c": JmsValue("string", "x"),
        "d": JmsValue("boolean", True),
        "e": JmsValue("long", 3000000000),
    }
    assert headers == {}


def test_typed_keys_and_headers_as_the_cli_types_them() -> None:
    props, headers = parse_properties('{"amount:float": "1.5", "JMSPriority": 7, "code:string": 12}')
    assert props == {"amount": JmsValue("float", 1.5), "code": JmsValue("string", "12")}
    assert headers == {"JMSPriority": JmsValue("int", 7)}


def test_a_map_of_text_is_typed_as_an_untyped_prop() -> None:
    props, _ = parse_properties('{"amount": "150", "name": "x"}', text_values=True)
    assert props == {"amount": JmsValue("int", 150), "name": JmsValue("string", "x")}
    props, _ = parse_properties('{"amount": "150"}')
    assert props == {"amount": JmsValue("string", "150")}


@pytest.mark.parametrize(
    "text, message",
    [
        ("[1, 2]", "not a JSON object"),
        ("{oops", "not a JSON object"),
        ('{"a": {"b": 1}}', "property 'a'"),
        ('{"1abc": 1}', "not a valid selector identifier"),
        ('{"a": 1e999}', "beyond the range of double"),
        ('{"a": 99999999999999999999}', "beyond the range of long"),
        ('{"JMSPriority": 12}', "priority must be from 0 to 9"),
        ('{"a:int": "x"}', "is not an int"),
    ],
)
def test_bad_properties_say_which(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_properties(text)


def test_the_key_keeps_only_what_a_selector_reads_and_gives_it_back() -> None:
    props, headers = parse_properties('{"amount": 5, "noise": "x", "JMSPriority": 9}')
    key = routing_key(props, headers, {"amount", "JMSPriority"})
    assert decode_key(key) == ({"amount": JmsValue("int", 5)}, {"JMSPriority": JmsValue("int", 9)})
    assert routing_key(props, headers, set()) == ""
    assert decode_key("") == ({}, {})
    other, _ = parse_properties('{"amount": 5, "noise": "y"}')
    assert routing_key(other, {}, {"amount"}) == routing_key(props, {}, {"amount"})
    # a type is part of the key: '5' and 5 are different to a selector
    text, _ = parse_properties('{"amount": "5"}')
    assert routing_key(text, {}, {"amount"}) != routing_key(props, {}, {"amount"})


def test_identifiers_come_from_subscriptions_and_route_selectors() -> None:
    assert selector_identifiers(ems.orders()) == {"country", "amount", "currency"}
    t = mq.topo(mq.qm("QM1"), mq.sub("QM1", "S", "/a", selector="JMSPriority > 4 AND region = 'EU'"))
    assert selector_identifiers(t) == {"JMSPriority", "region"}


def test_a_keyed_publication_routes_as_the_whole_one() -> None:
    topology = ems.orders()
    props, headers = parse_properties('{"country": "USA", "amount": 50, "currency": "USD", "x": 1}')
    key = routing_key(props, headers, selector_identifiers(topology))
    whole = explain(topology, to_publication("ORD", "orders", routing_key(props, headers, props)))
    keyed = explain(topology, to_publication("ORD", "orders", key))
    assert whole.to_json()["deliveries"] == keyed.to_json()["deliveries"]
    assert [d.node for d in keyed.deliveries] == ["USA"]
    assert dict(to_publication("ORD", "orders", key).headers) == dict(Message.create().headers)


def test_publications_of_one_key_share_read_only_content() -> None:
    """A replay makes a publication per key from a few property texts: those made from the same text
    carry the same properties and headers, which nobody can change under the others."""
    key = routing_key({"region": JmsValue("string", "EU")}, {"JMSPriority": JmsValue("int", 7)}, ["region"])
    first, second = to_publication("A", "t", key), to_publication("B", "u", key)
    assert dict(first.properties) == dict(second.properties) == {"region": JmsValue("string", "EU")}
    assert dict(first.headers) == dict(second.headers) == dict(Message.create().headers)
    with pytest.raises(TypeError):
        first.properties["region"] = JmsValue("string", "US")  # type: ignore[index]
