"""The official PubNub Python SDK (pinned in requirements.txt) against `LegacyDemo origin`.

LocalOrigin is a second implementation of the wire protocol; these tests prove it is faithful enough that the
official SDK works against it unchanged (issue 2). Every call's result is asserted.
"""

import pytest
from pubnub.crypto import AesCbcCryptoModule, LegacyCryptoModule
from pubnub.enums import PNPushType, PNStatusCategory
from pubnub.exceptions import PubNubException

from conftest import Listener, unique


def subscribe_and_wait(client, channels, groups=(), presence=True):
    listener = Listener()
    client.add_listener(listener)
    builder = client.subscribe().channels(list(channels))
    if groups:
        builder = builder.channel_groups(list(groups))
    if presence:
        builder = builder.with_presence()
    builder.execute()
    Listener.wait_for(listener.statuses, lambda s: s.category == PNStatusCategory.PNConnectedCategory)
    return listener


def test_time_is_a_17_digit_timetoken(make_client):
    client = make_client()
    first = int(client.time().sync().result)
    second = int(client.time().sync().result)
    assert 10**16 <= first < 10**17
    assert second > first


def test_two_clients_publish_and_subscribe_with_presence(make_client):
    channel = unique("chat")
    alice = make_client(user_id="alice")
    bob = make_client(user_id="bob")

    bob_listener = subscribe_and_wait(bob, [channel])
    alice_listener = subscribe_and_wait(alice, [channel])

    joined = Listener.wait_for(bob_listener.presence_events, lambda p: p.event == "join" and p.uuid == "alice")
    assert joined.occupancy == 2
    assert joined.channel == channel

    sent = alice.publish().channel(channel).message({"text": "hello", "n": 1}).meta({"m": 1}).sync()
    assert 10**16 <= sent.result.timetoken < 10**17

    received = Listener.wait_for(bob_listener.messages, lambda m: m.channel == channel)
    assert received.message == {"text": "hello", "n": 1}
    assert received.publisher == "alice"
    assert int(received.timetoken) == sent.result.timetoken
    assert received.user_metadata == {"m": 1}
    Listener.wait_for(alice_listener.messages, lambda m: m.message == {"text": "hello", "n": 1})

    alice.unsubscribe().channels([channel]).execute()
    left = Listener.wait_for(bob_listener.presence_events, lambda p: p.event == "leave" and p.uuid == "alice")
    assert left.occupancy == 1


def test_publish_via_post_and_unicode_and_order(make_client):
    channel = unique("post ü/ch")
    subscriber = make_client()
    listener = subscribe_and_wait(subscriber, [channel], presence=False)
    publisher = make_client()
    payloads = ["via POST", {"nested": {"list": [1, 2.5, None, True]}}, "é ü ✓ 日本", 12345678901234, ""]
    for payload in payloads:
        result = publisher.publish().channel(channel).message(payload).use_post(True).sync()
        assert result.result.timetoken > 0
    got = [Listener.wait_for(listener.messages, lambda m: True).message for _ in payloads]
    assert got == payloads


def test_message_too_large_is_rejected_with_400(make_client):
    client = make_client()
    with pytest.raises(PubNubException) as failure:
        client.publish().channel(unique("big")).message("x" * 33_000).use_post(True).sync()
    assert failure.value.get_status_code() == 400
    assert "Message Too Large" in str(failure.value)


def test_history_v2_paging_and_tokens(make_client):
    channel = unique("hist")
    client = make_client()
    tokens = [client.publish().channel(channel).message(f"m{i}").sync().result.timetoken for i in range(12)]

    newest = client.history().channel(channel).count(5).include_timetoken(True).sync().result
    assert [item.entry for item in newest.messages] == [f"m{i}" for i in range(7, 12)]
    assert [item.timetoken for item in newest.messages] == tokens[7:]
    assert newest.start_timetoken == tokens[7] and newest.end_timetoken == tokens[11]

    oldest = client.history().channel(channel).count(3).reverse(True).sync().result
    assert [item.entry for item in oldest.messages] == ["m0", "m1", "m2"]

    page = client.history().channel(channel).start(tokens[7]).count(100).sync().result
    assert [item.entry for item in page.messages] == [f"m{i}" for i in range(7)]

    window = client.history().channel(channel).start(tokens[2]).end(tokens[5]).sync().result
    assert [item.entry for item in window.messages] == ["m3", "m4", "m5"]

    empty = client.history().channel(unique("nothing")).sync().result
    assert empty.messages == []


def test_fetch_messages_v3(make_client):
    first, second = unique("fa"), unique("fb")
    client = make_client()
    tokens = [client.publish().channel(first).message({"i": i}).sync().result.timetoken for i in range(4)]
    client.publish().channel(second).message("only").sync()

    result = client.fetch_messages().channels([first, second]).maximum_per_channel(3).sync().result
    assert [item.message for item in result.channels[first]] == [{"i": 1}, {"i": 2}, {"i": 3}]
    assert [int(item.timetoken) for item in result.channels[first]] == tokens[1:]
    assert [item.message for item in result.channels[second]] == ["only"]


def test_here_now_where_now_and_state(make_client):
    channel, other = unique("room"), unique("room")
    carol = make_client(user_id="carol")
    dave = make_client(user_id="dave")
    subscribe_and_wait(carol, [channel, other], presence=False)
    subscribe_and_wait(dave, [channel], presence=False)

    set_result = carol.set_state().channels([channel]).state({"mood": "ok", "n": 3}).sync().result
    assert set_result.state == {"mood": "ok", "n": 3}
    got = dave.get_state().channels([channel]).uuid("carol").sync().result
    assert got.channels[channel] == {"mood": "ok", "n": 3}

    single = dave.here_now().channels([channel]).include_uuids(True).include_state(True).sync().result
    assert single.total_occupancy == 2
    occupants = {o.uuid: o.state for o in single.channels[0].occupants}
    assert set(occupants) == {"carol", "dave"}
    assert occupants["carol"] == {"mood": "ok", "n": 3}

    several = dave.here_now().channels([channel, other]).sync().result
    counts = {c.channel_name: c.occupancy for c in several.channels}
    assert counts == {channel: 2, other: 1}
    assert several.total_channels == 2 and several.total_occupancy == 3

    everywhere = dave.here_now().sync().result
    global_counts = {c.channel_name: c.occupancy for c in everywhere.channels}
    assert global_counts[channel] == 2 and global_counts[other] == 1

    where = dave.where_now().uuid("carol").sync().result
    assert sorted(where.channels) == sorted([channel, other])


def test_heartbeat_and_presence_timeout(make_client):
    channel = unique("hb")
    watcher = make_client(user_id="watcher")
    listener = subscribe_and_wait(watcher, [channel])
    beating = make_client(user_id="beating", presence_timeout=2)
    assert beating.heartbeat().channels([channel]).sync().status.is_error() is False
    joined = Listener.wait_for(listener.presence_events, lambda p: p.event == "join" and p.uuid == "beating")
    assert joined.occupancy == 2
    here = watcher.here_now().channels([channel]).include_uuids(True).sync().result
    assert {o.uuid for o in here.channels[0].occupants} == {"watcher", "beating"}
    # No further heartbeat: the origin must time `beating` out after its 2 s presence timeout.
    gone = Listener.wait_for(
        listener.presence_events, lambda p: p.event == "timeout" and p.uuid == "beating", timeout=15
    )
    assert gone.occupancy == 1


def test_channel_groups_manage_and_subscribe(make_client):
    group = unique("grp")
    a, b = unique("ga"), unique("gb")
    client = make_client()
    added = client.add_channel_to_channel_group().channels([a, b]).channel_group(group).sync()
    assert added.status.is_error() is False
    listed = client.list_channels_in_channel_group().channel_group(group).sync().result
    assert sorted(listed.channels) == sorted([a, b])

    listener = subscribe_and_wait(client, [], groups=[group], presence=False)
    publisher = make_client()
    publisher.publish().channel(b).message("through group").sync()
    got = Listener.wait_for(listener.messages, lambda m: m.message == "through group")
    assert got.channel == b
    assert got.subscription == group

    client.remove_channel_from_channel_group().channels([a]).channel_group(group).sync()
    assert client.list_channels_in_channel_group().channel_group(group).sync().result.channels == [b]
    client.remove_channel_group().channel_group(group).sync()
    assert client.list_channels_in_channel_group().channel_group(group).sync().result.channels == []


def test_push_registrations(make_client):
    token = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
    client = make_client()
    one, two = unique("p1"), unique("p2")
    client.add_channels_to_push().push_type(PNPushType.APNS).channels([one, two]).device_id(token).sync()
    listed = client.list_push_channels().push_type(PNPushType.APNS).device_id(token.upper()).sync().result
    assert sorted(listed.channels) == sorted([one, two])
    client.remove_channels_from_push().push_type(PNPushType.APNS).channels([one]).device_id(token).sync()
    assert client.list_push_channels().push_type(PNPushType.APNS).device_id(token).sync().result.channels == [two]
    client.remove_device_from_push().push_type(PNPushType.APNS).device_id(token).sync()
    assert client.list_push_channels().push_type(PNPushType.APNS).device_id(token).sync().result.channels == []


@pytest.mark.parametrize(
    "random_iv, module",
    [(False, None), (True, None), (True, AesCbcCryptoModule), (False, LegacyCryptoModule)],
    ids=["legacy-fixed-iv", "legacy-random-iv", "crypto-module-acrh", "legacy-module"],
)
def test_encrypted_messages_travel_between_clients(make_client, random_iv, module):
    channel = unique("secret")
    key = "enigma"
    sender = make_client(cipher_key=key, random_iv=random_iv, crypto_module=module)
    receiver = make_client(cipher_key=key, random_iv=random_iv, crypto_module=module)
    listener = subscribe_and_wait(receiver, [channel], presence=False)
    payloads = ["hello", {"é": ["ü", 1, 2.5, None]}, "x" * 20_000, ""]
    for payload in payloads:
        sender.publish().channel(channel).message(payload).sync()
    for payload in payloads:
        assert Listener.wait_for(listener.messages, lambda m: True).message == payload

    plain = make_client()
    stored = plain.history().channel(channel).count(10).sync().result.messages
    assert len(stored) == len(payloads)
    assert all(isinstance(item.entry, str) and item.entry not in payloads for item in stored[:2])
    decrypted = receiver.history().channel(channel).count(10).sync().result.messages
    assert [item.entry for item in decrypted] == payloads


def test_wrong_keys_are_refused_by_a_restricted_origin():
    from conftest import OriginProcess, PUB_KEY, SUB_KEY
    from pubnub.pnconfiguration import PNConfiguration
    from pubnub.pubnub import PubNub

    restricted = OriginProcess("--publish-key", PUB_KEY, "--subscribe-key", SUB_KEY)
    try:
        config = PNConfiguration()
        config.publish_key = "pub-c-wrong"
        config.subscribe_key = SUB_KEY
        config.user_id = "intruder"
        config.origin = restricted.address
        config.ssl = False
        client = PubNub(config)
        with pytest.raises(PubNubException) as failure:
            client.publish().channel("x").message("m").sync()
        assert failure.value.get_status_code() == 400
        assert "Invalid Key" in str(failure.value)

        config.publish_key = PUB_KEY
        config.subscribe_key = "sub-c-wrong"
        client = PubNub(config)
        with pytest.raises(PubNubException) as failure:
            client.history().channel("x").sync()
        assert failure.value.get_status_code() == 400
        assert "Invalid Subscribe Key" in str(failure.value)
        client.stop()
    finally:
        restricted.stop()
