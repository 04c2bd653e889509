#!/usr/bin/env python3
"""Converts recorded exchanges with the real PubNub service into Tests/Recordings/service-exchanges.json.

The PubNub SDK repositories record real exchanges with the service for their integration tests (VCR cassettes).
This script reads them from local clones, keeps the exchanges of the endpoints LocalOrigin serves, and writes one
compact fixture: each exchange with its provenance (repository, commit, file, position in the cassette), the
request (method, target, body), and the recorded answer (status, the headers clients use, the body).

    python3 Scripts/convert-recordings.py --python CLONE_OF_pubnub/python --ruby CLONE_OF_pubnub/ruby

Each clone is read at its HEAD (`git show`), so no work tree is needed. Needs PyYAML for the cassettes; nothing
else runs it (the fixture is committed; `swift test` only reads it). The conversion, so that a reader can check it:

- the service's keys become `{pub}` and `{sub}` (a key counts as the service's when some recording used it with
  a 2xx answer; keys the service refused, such as `fake`, stay literal), in paths and in the `k` / `subscribe_key`
  fields of answers to requests with `{sub}`;
- query parameters that only identify the SDK or sign the request (`pnsdk`, `signature`, `timestamp`, `l_*`
  latencies, `requestid`, `instanceid`) are dropped; everything else is kept as recorded;
- gzip bodies are inflated; the Python SDK's pickled bodies are read without running pickle code;
- an answer that is not JSON (the SDKs' own tests cut some recordings short to test their parsers) is left out,
  and so are methods and paths LocalOrigin does not serve (DELETE, message counts);
- exchanges equal once timetokens and Unix seconds are masked (for publish and subscribe every number) are kept
  once, with `alike` saying how many recordings there were.

The exchanges are sorted by endpoint, then by source, file and position, and numbered within their endpoint.
"""

import argparse
import base64
import collections
import gzip
import io
import json
import pickle
import re
import subprocess
import sys
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import yaml

DROPPED_PARAMETERS = re.compile(r"^(pnsdk|signature|timestamp|requestid|instanceid|l_[a-z_]+)$")
TIMETOKEN = re.compile(r"\d{17}")
UNIX_SECONDS = re.compile(r"\b1[4-8]\d{8}\b")
DIGITS = re.compile(r"\d+")
# Publish and subscribe recordings repeat one exchange with numbered messages and channels (`hey-42`, `demo0`) and
# sequence numbers: for them every number is masked when deciding whether two recordings are alike.
NUMBERED = {"publish", "subscribe"}


class _NoGlobals(pickle.Unpickler):
    """Reads the plain dicts, strings and bytes the Python SDK's VCR serializer pickles; refuses anything else."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


class _Loader(yaml.SafeLoader):
    """Safe YAML that reads `!!python/...` tags (tuples, yarl URLs) as plain lists and dicts."""


def _generic(loader, _suffix, node):
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _generic)


def git(clone, *args):
    return subprocess.run(["git", "-C", clone, *args], capture_output=True, check=True).stdout


def endpoint(method, path):
    """The LocalOrigin endpoint a request is for, or None."""
    s = path.split("/")[1:]
    if method not in ("GET", "POST") or not s:
        return None
    if s[0] == "time":
        return "time"
    if s[0] == "publish":
        return "publish"
    if s[0] == "subscribe":
        return "subscribe-v1"
    if len(s) < 2:
        return None
    if s[0] == "v2" and s[1] == "subscribe":
        return "subscribe"
    if s[0] == "v2" and s[1] == "presence":
        if len(s) == 4:
            return "here-now-global"
        if len(s) == 6 and s[4] == "uuid":
            return "where-now"
        if len(s) == 7 and s[6] in ("leave", "heartbeat"):
            return s[6]
        if len(s) == 6:
            return "here-now"
        if len(s) == 8:
            return "state-get"
        if len(s) == 9:
            return "state-set"
        return None
    if s[0] == "v2" and s[1] == "history":
        return "history-v2"
    if s[0] == "v3" and s[1] == "history":
        # `/v3/history/sub-key/{sub}/message-counts/…` counts messages; LocalOrigin does not serve it.
        return None if "message-counts" in s else "history-v3"
    if s[0] == "v1" and s[1] == "channel-registration":
        return "channel-groups"
    if s[0] in ("v1", "v2") and s[1] == "push":
        return "push-" + s[0]
    return None


def key_positions(path):
    """(role, index) of the key segments of a path: publish key and subscribe keys."""
    s = path.split("/")
    if len(s) > 3 and s[1] == "publish":
        return [("pub", 2), ("sub", 3)]
    if len(s) > 3 and s[1] == "v2" and s[2] == "subscribe":
        return [("sub", 3)]
    for index, segment in enumerate(s):
        if segment in ("sub-key", "sub_key") and index + 1 < len(s):
            return [("sub", index + 1)]
    return []


def headers_of(response):
    raw = response.get("headers") or {}
    items = raw.items() if isinstance(raw, dict) else [tuple(pair) for pair in raw]
    out = {}
    for name, value in items:
        if isinstance(value, list):
            value = value[0] if value else ""
        out[str(name).lower()] = str(value)
    return out


def body_bytes(body):
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8", "surrogateescape")
    if isinstance(body, bytes):
        return body
    if isinstance(body, dict) and "pickle" in body:
        value = _NoGlobals(io.BytesIO(base64.b64decode(body["pickle"]))).load()
        value = value.get("string") if isinstance(value, dict) else value
        if isinstance(value, dict) and "binary" in value:
            return base64.b64decode(value["binary"])
        return body_bytes(value)
    if isinstance(body, dict) and "string" in body:
        return body_bytes(body["string"])
    return b""


def recorded_date(interaction, response_headers):
    for text in (response_headers.get("date"), interaction.get("recorded_at")):
        if text:
            try:
                return parsedate_to_datetime(str(text)).strftime("%Y-%m-%d")
            except (TypeError, ValueError):
                match = re.search(r"(20\d\d)-(\d\d)-(\d\d)", str(text))
                if match:
                    return match.group(0)
    return ""


def unwrap_jsonp(text):
    match = re.fullmatch(r"\s*[A-Za-z_$][\w$]*\((.*)\)\s*;?\s*", text, re.S)
    return match.group(1) if match else text


def read_cassettes(clone, root, source):
    for path in git(clone, "ls-tree", "-r", "--name-only", "HEAD", root).decode().splitlines():
        if not path.endswith((".yml", ".yaml", ".json")):
            continue
        text = git(clone, "show", "HEAD:" + path).decode("utf-8", "replace")
        document = json.loads(text) if path.endswith(".json") else yaml.load(text, Loader=_Loader)
        if not isinstance(document, dict):
            continue
        interactions = document.get("interactions") or document.get("http_interactions") or []
        for position, interaction in enumerate(interactions):
            yield source, path[len(root) + 1 :], position, interaction


def convert(sources):
    raw = []
    excluded = collections.Counter()
    for source, clone, root in sources:
        for source_name, path, position, interaction in read_cassettes(clone, root, source):
            request, response = interaction["request"], interaction["response"]
            method = request["method"].upper()
            url = urlsplit(request["uri"])
            kind = endpoint(method, url.path)
            if kind is None:
                continue
            headers = headers_of(response)
            body = body_bytes(response.get("body"))
            if body[:2] == b"\x1f\x8b":  # some recorders kept the gzip bytes, others the inflated text
                body = gzip.decompress(body)
            text = body.decode("utf-8")
            try:
                json.loads(unwrap_jsonp(text))
            except ValueError:
                excluded["answer not JSON (cut short by the SDK's own tests)"] += 1
                continue
            status = response["status"]
            request_body = body_bytes(request.get("body")).decode("utf-8", "replace") or None
            raw.append(
                dict(
                    source=source_name,
                    file=path,
                    at=position,
                    endpoint=kind,
                    method=method,
                    path=url.path,
                    query=url.query,
                    body=request_body,
                    status=int(status["code"] if isinstance(status, dict) else status),
                    headers=headers,
                    answer=text,
                    recorded=recorded_date(interaction, headers),
                )
            )
    # Keys the service accepted: used by some exchange answered 2xx.
    good = {"pub": set(), "sub": set()}
    for exchange in raw:
        if exchange["status"] < 300:
            segments = exchange["path"].split("/")
            for role, index in key_positions(exchange["path"]):
                good[role].add(segments[index])
    for placeholder in ("{PN_KEY_PAM_PUBLISH}",):
        good["pub"].add(placeholder)
    for placeholder in ("{PN_KEY_PAM_SUBSCRIBE}",):
        good["sub"].add(placeholder)
    exchanges = {}
    for exchange in raw:
        segments = exchange["path"].split("/")
        for role, index in key_positions(exchange["path"]):
            if segments[index] in good[role]:
                segments[index] = "{" + role + "}"
        pairs = [pair for pair in exchange["query"].split("&") if pair]
        pairs = [pair for pair in pairs if not DROPPED_PARAMETERS.match(pair.split("=", 1)[0])]
        target = "/".join(segments) + ("?" + "&".join(pairs) if pairs else "")
        answer = exchange["answer"]
        if "{sub}" in segments:
            # An answer names the request's subscribe key (some recorders masked it in the request only).
            answer = re.sub(r'("(?:k|subscribe_key)"\s*:\s*")[^"]*"', r'\1{sub}"', answer)
        kept_headers = {
            name: value
            for name, value in exchange["headers"].items()
            if name in ("content-type", "cache-control") or name.startswith("access-control-")
        }
        entry = dict(
            endpoint=exchange["endpoint"],
            source=exchange["source"],
            file=exchange["file"],
            at=exchange["at"],
            recorded=exchange["recorded"],
            method=exchange["method"],
            target=target,
            body=exchange["body"],
            status=exchange["status"],
            headers=dict(sorted(kept_headers.items())),
            answer=answer,
        )
        identity = json.dumps(
            [entry["endpoint"], entry["method"], masked(target, entry), masked(entry["body"], entry)]
            + [entry["status"], entry["headers"], masked(answer, entry)]
        )
        if identity in exchanges:
            exchanges[identity]["alike"] += 1
        else:
            entry["alike"] = 1
            exchanges[identity] = entry
    ordered = sorted(exchanges.values(), key=lambda e: (e["endpoint"], e["source"], e["file"], e["at"]))
    numbers = collections.Counter()
    for entry in ordered:
        numbers[entry["endpoint"]] += 1
        entry["id"] = "%s/%03d" % (entry["endpoint"], numbers[entry["endpoint"]])
    return ordered, excluded, len(raw)


def masked(text, entry):
    """`text` with what differs between runs of one recording masked: timetokens, Unix seconds, and for publish and
    subscribe every number."""
    text = UNIX_SECONDS.sub("S", TIMETOKEN.sub("T", text or ""))
    return DIGITS.sub("#", text) if entry["endpoint"] in NUMBERED else text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", required=True, help="a clone of github.com/pubnub/python")
    parser.add_argument("--ruby", required=True, help="a clone of github.com/pubnub/ruby")
    parser.add_argument("--output", default="Tests/Recordings/service-exchanges.json")
    arguments = parser.parse_args()
    sources = [
        ("python", arguments.python, "tests/integrational/fixtures"),
        ("ruby", arguments.ruby, "fixtures/vcr_cassettes"),
    ]
    exchanges, excluded, total = convert(sources)
    header = {
        "about": "Exchanges with the real PubNub service, recorded by the SDKs' integration tests (VCR cassettes), "
        "converted by Scripts/convert-recordings.py: keys are {pub}/{sub}, SDK and signing parameters dropped, "
        "recordings equal but for timetokens kept once ('alike' counts them). Tests/Recordings/README.md says more.",
        "sources": {
            name: {
                "repository": "github.com/pubnub/" + name,
                "commit": git(clone, "rev-parse", "HEAD").decode().strip(),
                "root": root,
            }
            for name, clone, root in sources
        },
        "recorded": total,
        "excluded": dict(excluded),
    }
    lines = ["{"]
    for name, value in header.items():
        lines.append("  %s: %s," % (json.dumps(name), json.dumps(value, ensure_ascii=False)))
    lines.append('  "exchanges": [')
    order = ["id", "endpoint", "source", "file", "at", "recorded", "alike", "method", "target", "body"]
    order += ["status", "headers", "answer"]
    rows = [json.dumps({key: entry[key] for key in order}, ensure_ascii=False) for entry in exchanges]
    lines.append(",\n".join("    " + row for row in rows))
    lines.append("  ]")
    lines.append("}")
    with open(arguments.output, "w", encoding="utf-8") as output:
        output.write("\n".join(lines) + "\n")
    counts = collections.Counter(entry["endpoint"] for entry in exchanges)
    print("%d recorded exchanges, %d kept: %s" % (total, len(exchanges), dict(sorted(counts.items()))))
    print("excluded: %s" % dict(excluded), file=sys.stderr)


if __name__ == "__main__":
    main()
