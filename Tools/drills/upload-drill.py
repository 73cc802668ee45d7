#!/usr/bin/env python3
"""Resumable photo uploads cut at random offsets, many times over, through nginx over two
instances (run by Tools/cluster --check, before its checks stop an instance). Each upload is
started with an empty request (nginx cannot pass the interim 104 on, so the cluster turns it
off and the 201 says where the upload is), then sent in requests that are cut (a TCP reset)
at a random byte, each resumed from the offset HEAD reports on whichever instance nginx picks;
the last request finishes it; a request refused because the upload places are held (429 or
503) is sent again after Retry-After. Checks every photo arrives whole (SHA-256 of what the
media server stores) and exactly once, that both instances took part, and that nothing is
left behind. Exits 1 on a failure.

    Tools/drills/upload-drill.py BASE_URL ADMIN_TOKEN DATABASE_URL
"""
import collections
import hashlib
import http.client
import os
import random
import socket
import struct
import sys
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect, item, sql  # noqa: E402

base, admin, database = sys.argv[1], sys.argv[2], sys.argv[3]
host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
CUSTOMERS, UPLOADS_EACH = 4, 3
lock = threading.Lock()
upstreams = collections.Counter()
tally = collections.Counter()


# The answers that say the upload places are held for now (UPLOAD_MAX_PER_CUSTOMER, UPLOAD_MAX_CONCURRENT).
PLACES_HELD = ("/problems/too-many-uploads-at-once", "/problems/too-many-uploads")


class StillRefused(Exception):
    """The upload places stayed held through every try."""


def request(method, path, token, headers=None, body=b""):
    """One request, sent again after Retry-After (5 s at most) while the answer says the upload
    places are held (429 too-many-uploads-at-once, 503 too-many-uploads: a cut request the
    instance has not yet seen end may hold one), as a client would; any other answer is
    returned as it is. Raises StillRefused after 30 tries."""
    for _ in range(30):
        connection = http.client.HTTPConnection(host, port, timeout=60)
        connection.request(method, path, body=body, headers={"Authorization": f"Bearer {token}", **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        held = response.status in (429, 503) and any(kind.encode() in data for kind in PLACES_HELD)
        with lock:
            if held:
                tally["waits"] += 1
            else:  # only an answer that served the request counts as the instance's part
                upstreams[(method, response.getheader("X-Upstream"))] += 1
        if not held:
            return response.status, response, data
        time.sleep(min(5.0, float(response.getheader("Retry-After") or 1)))
    raise StillRefused(f"{method} {path}: the upload places stayed held through 30 tries")


def cut_patch(location, token, photo, offset, cut):
    """A PATCH of the rest of the photo that stops after `cut` bytes and resets the connection."""
    connection = socket.create_connection((host, port), timeout=30)
    head = (f"PATCH {location} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
            f"Upload-Draft-Interop-Version: 6\r\nUpload-Offset: {offset}\r\nUpload-Complete: ?1\r\n"
            f"Content-Type: application/partial-upload\r\nContent-Length: {len(photo) - offset}\r\n\r\n")
    connection.sendall(head.encode() + photo[offset:cut])
    time.sleep(0.05)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def finishing_patch(location, token, offset, rest):
    """The request that sends the rest of the photo from `offset` and finishes the upload."""
    status, _, data = request("PATCH", location, token, {
        "Upload-Draft-Interop-Version": "6", "Upload-Offset": str(offset), "Upload-Complete": "?1",
        "Content-Type": "application/partial-upload"}, rest)
    return status, data


def offset_of(location, token):
    status, response, _ = request("HEAD", location, token, {"Upload-Draft-Interop-Version": "6"})
    return int(response.getheader("Upload-Offset")) if status == 204 else None


def upload(token, review):
    """One photo, cut 2 to 5 times; returns (photo bytes, the final answer, an error)."""
    try:
        return upload_cut(token, review)
    except StillRefused as refused:
        return b"", None, str(refused)


def upload_cut(token, review):
    # A JPEG with no metadata (the service drops Exif and the like): start of image, a JFIF
    # header, start of scan, random entropy-coded data (each 0xFF stuffed with 0x00, as an
    # encoder writes it) and end of image, which is stored exactly as sent.
    scan = os.urandom(random.randint(200_000, 2_000_000)).replace(b"\xff", b"\xff\x00")
    photo = (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
             + b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00" + scan + b"\xff\xd9")
    status, response, _ = request("POST", f"/v1/reviews/{review}/photos", token,
                                  {"Upload-Draft-Interop-Version": "6", "Upload-Complete": "?0"})
    if status != 201:
        return photo, None, f"start answered {status}"
    location = response.getheader("Location")
    cuts = random.randint(2, 5)
    for _ in range(200):
        time.sleep(0.1)  # the instance that lost the connection stores what arrived a moment later
        offset = offset_of(location, token)
        if offset is None:
            return photo, None, "the upload was lost"
        if cuts > 0:
            cuts -= 1
            cut_patch(location, token, photo, offset, random.randint(offset, len(photo)))
            with lock:
                tally["cuts"] += 1
            continue
        status, data = finishing_patch(location, token, offset, photo[offset:])
        if status == 409:  # a cut request stored its last bytes after the HEAD: ask again
            with lock:
                tally["conflicts"] += 1
            continue
        # Asked again, as a client whose answer was lost would: the same answer, nothing recorded twice.
        again, replay = finishing_patch(location, token, len(photo), b"")
        if again != status or replay != data:
            return photo, None, f"asked again it answered {again}, not {status}"
        return photo, (status, data), None
    return photo, None, "never finished"


tokens = [customer(base) for _ in range(CUSTOMERS)]
reviews = []
for token in tokens:
    answer = call(f"{base}/v1/items/{item(base, admin, 1)}/reviews", "POST", {"content": "Drill", "rating": 4}, token)
    reviews.append(answer.body["id"])
jobs = [(tokens[n], reviews[n]) for n in range(CUSTOMERS) for _ in range(UPLOADS_EACH)]
started = time.monotonic()
with ThreadPoolExecutor(len(jobs)) as pool:
    results = list(pool.map(lambda job: upload(*job), jobs))
elapsed = time.monotonic() - started
errors = [error for _, _, error in results if error]
print(f"      {len(jobs)} uploads, {tally['cuts']} cuts, {tally['conflicts']} offsets moved by a late store, "
      f"{tally['waits']} waits for a place (429/503), in {elapsed:.1f} s; requests by upstream {dict(upstreams)}")
expect(not errors, f"every upload finished after its cuts ({errors[:3]})")
whole = 0
import json  # noqa: E402
for photo, answer, _ in results:
    if not answer or answer[0] != 201:
        continue
    created = json.loads(answer[1])
    with urllib.request.urlopen(created["url"], timeout=30) as stored:
        whole += hashlib.sha256(stored.read()).digest() == hashlib.sha256(photo).digest() and created["size"] == len(photo)
expect(whole == len(jobs), f"every photo arrived whole: the stored file's SHA-256 is the sent one's ({whole}/{len(jobs)})")
counts = sql(database, "SELECT review_id, count(*) FROM review_photos WHERE review_id IN ("
             + ",".join(f"'{r}'" for r in reviews) + ") GROUP BY review_id").splitlines()
expect(sorted(int(line.split("|")[1]) for line in counts) == [UPLOADS_EACH] * CUSTOMERS,
       f"each photo recorded exactly once, asked twice ({UPLOADS_EACH} per review: {counts})")
instances = {upstream for (method, upstream) in upstreams if method in ("HEAD", "PATCH") and upstream}
expect(len(instances) == 2, f"both instances resumed uploads ({sorted(instances)})")
left = sql(database, "SELECT count(*) FROM resumable_upload_chunks")
open_uploads = sql(database, "SELECT count(*) FROM resumable_uploads WHERE state <> 'done'")
expect(left == "0" and open_uploads == "0", f"no upload or stored piece left behind ({open_uploads} open, {left} pieces)")
sys.exit(exit_status())
