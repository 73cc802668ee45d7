#!/usr/bin/env python3
"""The server's deadlines and limits, drilled against a running instance started with small values
(Tools/faults starts one: HTTP_IDLE_TIMEOUT_SECONDS=2, HTTP_REQUEST_TIMEOUT_SECONDS=3,
HTTP_MAX_CONNECTIONS=40, UPLOAD_MAX_CONCURRENT=2, UPLOAD_MAX_PER_CUSTOMER=1, UPLOAD_MAX_PER_ADDRESS=1,
TRUSTED_PROXY_HOPS=1, DATABASE_LOCK_TIMEOUT_MS=300).

- Idle sockets, far more than the connection cap: every one is closed by the server after the idle
  timeout, and a fresh client is served again once they are gone.
- A request head dripped a byte at a time: closed by the idle timeout.
- Photo uploads dripped a byte at a time (each byte counts as activity) by as many customers as the
  upload limit: a second upload of a customer holding their one place (UPLOAD_MAX_PER_CUSTOMER=1),
  multipart or bytes for a paused resumable one, is refused at once with 429 while the instance
  has places, and so is another customer's from the same address (UPLOAD_MAX_PER_ADDRESS=1, each
  upload's address told by X-Forwarded-For); one more of a new customer from a new address, once
  they hold every place, with 503; the dripped ones are closed by the request deadline, their
  spool files gone.
- A table locked by another session: the request waiting for it answers 503 after the lock
  deadline instead of holding a pooled connection while everyone else queues.

Usage: limits-drill.py BASE_URL DATABASE_URL SPOOL_DIR SERVER_PID IDLE_SECONDS REQUEST_SECONDS MAX_CONNECTIONS UPLOADS"""
import os
import socket
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect  # noqa: E402

base, database, spool, pid = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
idle, deadline, cap, uploads = float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port


def connect():
    s = socket.create_connection((host, port), timeout=10)
    s.settimeout(0.05)
    return s


def closed_by_server(s):
    """True once the server has closed `s` (a read returns end of file or a reset)."""
    try:
        return s.recv(65536) == b""
    except socket.timeout:
        return False
    except OSError:
        return True


def wait_closed(sockets, limit):
    """Seconds until every socket was closed by the server, or None past `limit`."""
    started = time.monotonic()
    open_ones = list(sockets)
    while open_ones and time.monotonic() - started < limit:
        open_ones = [s for s in open_ones if not closed_by_server(s)]
        time.sleep(0.05)
    return None if open_ones else time.monotonic() - started


def descriptors():
    return len(os.listdir(f"/proc/{pid}/fd"))


print(f"idle connections: {cap * 3} sockets sending nothing (cap {cap}, idle timeout {idle} s)")
before = descriptors()
idlers = []
for _ in range(cap * 3):
    try:
        idlers.append(connect())
    except OSError:
        break
time.sleep(0.5)  # for the server to accept what it will
peak = descriptors()
expect(cap - 5 <= peak - before <= cap + 5, f"the server holds the cap of connections, no more ({peak - before} new descriptors for {len(idlers)} sockets)")
took = wait_closed(idlers, idle * 4 + 10)
expect(took is not None, f"every idle socket was closed by the server ({took and round(took, 1)} s)")
for s in idlers:
    s.close()
answer = call(base + "/health", timeout=10)
expect(answer.status == 200, f"a new client is served afterwards ({answer.status} in {answer.seconds:.2f} s)")

print("a request head dripped one byte a second")
s = connect()
started = time.monotonic()
head = b"GET /health HTTP/1.1\r\nHost: drill\r\nX-Padding: " + b"x" * 200
closed_at = None
for byte in head:
    try:
        s.send(bytes([byte]))
    except OSError:
        closed_at = time.monotonic() - started
        break
    if closed_by_server(s):
        closed_at = time.monotonic() - started
        break
    time.sleep(0.5)
expect(closed_at is not None and closed_at <= idle + 2, f"closed by the idle timeout ({closed_at and round(closed_at, 1)} s)")
s.close()

print(f"photo uploads dripped one byte every half second by {uploads} customers (the upload limit, one place each)")
item = call(base + "/v1/items?limit=1").body["data"][0]["id"]
boundary = "drill-boundary"
preamble = (
    f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n"
    "Content-Type: image/jpeg\r\n\r\n"
).encode() + b"\xff\xd8\xff\xe0" + b"B" * 4096


def reviewer():
    """A new customer's token and the id of the review they wrote."""
    token = customer(base)
    return token, call(base + f"/v1/items/{item}/reviews", "POST", {"content": "Dripped", "rating": 3}, token=token).body["id"]


def multipart_head(token, review, address):
    return (
        f"POST /v1/reviews/{review}/photos HTTP/1.1\r\nHost: drill\r\nAuthorization: Bearer {token}\r\n"
        f"X-Forwarded-For: {address}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(preamble) + 1_000_000}\r\n\r\n"
    ).encode()


def final_head(received):
    """The head of the first answer in `received` that is not an interim (1xx) one, or None."""
    at = 0
    while (at := received.find(b"HTTP/1.1 ", at)) >= 0:
        end = received.find(b"\r\n\r\n", at)
        if end < 0:
            return None
        if received[at + 9:at + 10] != b"1":
            return received[at:end]
        at = end + 4
    return None


def answer_at_once(request):
    """The status and head of the answer to `request`, sent on a new socket, and how long it took."""
    s = connect()
    s.settimeout(5)
    started = time.monotonic()
    s.send(request)
    received = b""
    try:
        while final_head(received) is None and (chunk := s.recv(4096)):
            received += chunk
    except OSError:
        pass
    s.close()
    head = final_head(received) or b""
    return (head.split(b" ")[1].decode() if head else "none"), head, time.monotonic() - started


first_token, first_review = reviewer()
# A resumable upload of the first customer, started (and paused) while they hold no place.
status, received, _ = answer_at_once(
    (
        f"POST /v1/reviews/{first_review}/photos HTTP/1.1\r\nHost: drill\r\nAuthorization: Bearer {first_token}\r\n"
        "Upload-Draft-Interop-Version: 6\r\nUpload-Complete: ?0\r\nContent-Length: 4\r\n\r\n"
    ).encode() + b"\xff\xd8\xff\xe0")
location = next((line.split(b":", 1)[1].strip().decode() for line in received.split(b"\r\n") if line.lower().startswith(b"location:")), None)
expect(status == "201" and location, f"a resumable upload is started and paused ({status}, {location})")
drips = []
sent = time.monotonic()
for index in range(uploads):
    token, review = (first_token, first_review) if index == 0 else reviewer()
    s = connect()
    s.send(multipart_head(token, review, f"192.0.2.{index + 1}") + preamble)
    drips.append(s)
    time.sleep(0.5)
    if index == 0 and uploads > 1:
        # The instance has places left, but this customer holds the one a customer may: their
        # other upload, or more bytes for their paused one, is refused at once, before its body is read.
        status, _, took = answer_at_once(multipart_head(first_token, first_review, "198.51.100.1") + preamble)
        expect(status == "429" and took < 1.5, f"a customer's second upload at once is refused at once ({status} in {took:.2f} s)")
        status, _, took = answer_at_once(multipart_head(*reviewer(), "192.0.2.1") + preamble)
        expect(status == "429" and took < 1.5, f"so is another customer's from the same address ({status} in {took:.2f} s)")
        status, _, took = answer_at_once(
            (
                f"PATCH {location} HTTP/1.1\r\nHost: drill\r\nAuthorization: Bearer {first_token}\r\n"
                "X-Forwarded-For: 198.51.100.2\r\n"
                "Upload-Draft-Interop-Version: 6\r\nUpload-Complete: ?0\r\nUpload-Offset: 4\r\n"
                "Content-Type: application/partial-upload\r\nContent-Length: 1000000\r\n\r\n"
            ).encode() + b"B")
        expect(status == "429" and took < 1.5, f"so are more bytes for their paused upload ({status} in {took:.2f} s)")
# One more upload, of a customer holding none, while they hold every place: refused at once.
status, _, took = answer_at_once(multipart_head(*reviewer(), "203.0.113.1") + preamble)
expect(status == "503" and took < 1.5, f"an upload past the instance's limit is refused at once ({status} in {took:.2f} s)")
started = sent
closed_at = [None] * len(drips)
while time.monotonic() - started < deadline + idle + 10 and None in closed_at:
    for index, s in enumerate(drips):
        if closed_at[index] is not None:
            continue
        try:
            s.send(b"B")
        except OSError:
            closed_at[index] = time.monotonic() - started
            continue
        if closed_by_server(s):
            closed_at[index] = time.monotonic() - started
    time.sleep(0.5)
latest = max((t for t in closed_at if t is not None), default=None)
expect(None not in closed_at and latest <= deadline + 2, f"every dripped upload closed by the request deadline (last after {latest and round(latest, 1)} s)")
for s in drips:
    s.close()
time.sleep(0.5)
left = os.listdir(spool) if os.path.isdir(spool) else []
expect(not left, f"no spool file left ({len(left)})")

print("a table locked by another session")
locker = subprocess.Popen(
    ["psql", database, "-qAt", "-c", "BEGIN; LOCK TABLE items IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(6); COMMIT;"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
# Read only once the lock is held: psql may take longer than a fixed pause to get there on a
# loaded machine (the read then found no lock and answered 200).
held_sql = ("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            "WHERE c.relname = 'items' AND l.mode = 'AccessExclusiveLock' AND l.granted")
waited = time.monotonic()
while time.monotonic() - waited < 10:
    held = subprocess.run(["psql", database, "-qAt", "-c", held_sql], capture_output=True, text=True).stdout.strip()
    if held == "1":
        break
    time.sleep(0.1)
answer = call(base + "/v1/items?limit=1", timeout=10)
expect(answer.status == 503 and answer.seconds < 2, f"a read waiting for the lock answers 503 fast ({answer.status} in {answer.seconds:.2f} s)")
expect(answer.headers.get("Retry-After") is not None, "with Retry-After")
locker.wait(timeout=20)
answer = call(base + "/v1/items?limit=1", timeout=10)
expect(answer.status == 200, f"served again once the lock is gone ({answer.status})")
sys.exit(exit_status())
