"""Request signing: the official PubNub Python SDK configured with a secret key against `LegacyDemo origin
--secret-key` (issue 20 item 7).

The SDK signs every request it sends (`timestamp` + `signature`: v2 for everything, v1 for POST publish); the origin
checks each one with its own implementation of the rules. Requests the SDK signed are accepted on every endpoint; a
client with another secret key, or none, and a request changed after the SDK signed it get 403.
"""

import http.client
import json

import pytest
from pubnub.enums import PNPushType, PNStatusCategory
from pubnub.exceptions import PubNubException
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub

from conftest import PUB_KEY, SUB_KEY, Listener, OriginProcess, unique

SECRET = "sec-c-interop-ZjY4MDE0ZTIt"
MISMATCH = {"message": "Signature does not match", "error": True, "service": "Access Manager", "status": 403}


@pytest.fixture(scope="module")
def signed_origin():
    process = OriginProcess("--publish-key", PUB_KEY, "--subscribe-key", SUB_KEY, "--secret-key", SECRET)
    yield process
    process.stop()
    assert process.process.returncode == 0, f"origin exited with {process.process.returncode}"


@pytest.fixture
def make_signed_client(signed_origin):
    clients = []

    def build(secret_key=SECRET, user_id=None):
        config = PNConfiguration()
        config.publish_key = PUB_KEY
        config.subscribe_key = SUB_KEY
        config.user_id = user_id or unique("py-signed")
        config.origin = signed_origin.address
        config.ssl = False
        config.enable_subscribe = True
        if secret_key is not None:
            config.secret_key = secret_key
        client = PubNub(config)
        clients.append(client)
        return client

    yield build
    for client in clients:
        try:
            client.unsubscribe_all()
        finally:
            client.stop()


def raw_get(origin, target):
    """Sends `target` as is (no client-side escaping) and returns (status, parsed JSON body)."""
    host, port = origin.address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def signed_target(endpoint):
    """The path and query the SDK sends for `endpoint`, signed by the SDK itself."""
    options = endpoint.options()
    options.merge_params_in({})
    return options.path + "?" + options.query_string


def test_the_sdk_with_the_secret_key_is_accepted_on_every_endpoint(signed_origin, make_signed_client):
    channel = unique("signed ü ch")
    group = unique("signed-group")
    alice = make_signed_client(user_id="alice-signed")
    bob = make_signed_client(user_id="bob-signed")
    first_log_line = len(signed_origin.log_lines)

    assert 10**16 <= int(alice.time().sync().result) < 10**17

    listener = Listener()
    bob.add_listener(listener)
    bob.subscribe().channels([channel]).with_presence().execute()
    Listener.wait_for(listener.statuses, lambda s: s.category == PNStatusCategory.PNConnectedCategory)

    alice.publish().channel(channel).message({"via": "GET", "text": "ü ✓ +&="}).meta({"m": 1}).sync()
    alice.publish().channel(channel).message({"via": "POST"}).use_post(True).sync()
    got = [Listener.wait_for(listener.messages, lambda m: m.channel == channel).message for _ in range(2)]
    assert got == [{"via": "GET", "text": "ü ✓ +&="}, {"via": "POST"}]

    history = alice.history().channel(channel).count(10).include_timetoken(True).sync().result.messages
    assert [item.entry for item in history] == got
    fetched = alice.fetch_messages().channels([channel]).maximum_per_channel(10).sync().result.channels
    assert [item.message for item in fetched[channel]] == got

    here = alice.here_now().channels([channel]).include_uuids(True).sync().result
    assert [occupant.uuid for occupant in here.channels[0].occupants] == ["bob-signed"]
    alice.set_state().channels([channel]).state({"mood": "signed & sealed"}).sync()

    # Query values must be ASCII for the SDK (httpx refuses others), so the group holds ASCII names.
    alice.add_channel_to_channel_group().channels(["signed-a", "signed b"]).channel_group(group).sync()
    listed = alice.list_channels_in_channel_group().channel_group(group).sync().result.channels
    assert sorted(listed) == ["signed b", "signed-a"]
    token = "a1b2c3d4" * 4
    alice.add_channels_to_push().push_type(PNPushType.APNS).channels(["signed-a"]).device_id(token).sync()
    pushed = alice.list_push_channels().push_type(PNPushType.APNS).device_id(token).sync().result.channels
    assert pushed == ["signed-a"]

    bob.unsubscribe().channels([channel]).execute()
    # Every request the two clients sent was checked and accepted; the log shows the signatures only redacted.
    lines = signed_origin.log_lines[first_log_line:]
    assert lines, "the origin logged no request"
    refused = [line for line in lines if line.split(" ", 1)[0] not in ("200", "0")]
    assert refused == []
    assert all("timestamp=" in line and "signature=set" in line for line in lines), lines
    assert any(line.startswith("200 POST /publish/") for line in lines), lines  # the v1-signed POST publish
    assert not any(SECRET in line for line in lines)


@pytest.mark.parametrize("secret_key", ["sec-c-interop-another-one", None])
def test_the_sdk_with_another_secret_key_or_none_is_refused_with_403(make_signed_client, secret_key):
    client = make_signed_client(secret_key=secret_key)
    for call in (
        lambda: client.publish().channel(unique("refused")).message("m").sync(),
        lambda: client.publish().channel(unique("refused")).message("m").use_post(True).sync(),
        lambda: client.history().channel(unique("refused")).sync(),
    ):
        with pytest.raises(PubNubException) as failure:
            call()
        assert failure.value.get_status_code() == 403
        assert "Signature does not match" in str(failure.value)


def test_a_request_changed_after_the_sdk_signed_it_is_refused(signed_origin, make_signed_client):
    client = make_signed_client(user_id="tamper-check")
    channel = unique("tamper")
    target = signed_target(client.publish().channel(channel).message("original"))
    assert "signature=v2." in target and "timestamp=" in target

    for changed in (
        target.replace("%22original%22", "%22forged%22"),  # the message
        target.replace("uuid=tamper-check", "uuid=someone-else"),  # a query value
        target + "&store=0",  # an added parameter
        target.replace(f"/{SUB_KEY}/0/", f"/{SUB_KEY}/1/"),  # the path
    ):
        assert changed != target
        status, body = raw_get(signed_origin, changed)
        assert (status, body) == (403, MISMATCH), changed

    # Unchanged, the very same bytes are accepted (and stored once).
    status, body = raw_get(signed_origin, target)
    assert status == 200 and body[1] == "Sent"
    history = client.history().channel(channel).sync().result.messages
    assert [item.entry for item in history] == ["original"]
