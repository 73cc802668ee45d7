#!/usr/bin/env python3
"""Media faults (run by Tools/faults): clients that disconnect in the middle of a photo upload,
then uploads while the media API (behind Tools/drills/fault-proxy.py) answers 500, is slow past the
service's deadline, or closes the connection. Checks: no photo row for any of them, no spooled
file left behind, 502 for the client, the server still answers and its memory is back.

    Tools/drills/media-drill.py BASE_URL SPOOL_DIRECTORY SERVER_PID MEDIA_PROXY_URL
"""
import os
import socket
import sys
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect  # noqa: E402

base, spool, server, proxy = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
host, port = urllib.parse.urlparse(base).hostname, urllib.parse.urlparse(base).port


def rss():
    return int(next(line.split()[1] for line in open(f"/proc/{server}/status") if line.startswith("VmRSS")))


def upload(token, review, size, send):
    """Starts a multipart upload of `size` bytes, sends `send` of them, then hangs up or reads the answer."""
    boundary = "drill" + uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    body = head + b"\xff\xd8\xff\xe0" + os.urandom(size - 4) + tail
    with socket.create_connection((host, port)) as connection:
        connection.sendall((f"POST /v1/reviews/{review}/photos HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
                            f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n").encode())
        connection.sendall(body[:send])
        if send < len(body):
            return None
        return connection.recv(4096).split(b" ")[1].decode()


token = customer(base)
item = call(base + "/v1/items?limit=1").body["data"][0]["id"]
review = call(f"{base}/v1/items/{item}/reviews", "POST", {"content": "Drill", "rating": 3}, token).body["id"]

expect(upload(token, review, 200_000, 10**9) == "201", "a whole upload works (201)")
before = rss()
for _ in range(20):
    upload(token, review, 8 * 1024 * 1024, 3 * 1024 * 1024)  # 3 of 8 MiB, then hang up
# The server learns of each hang-up when its socket reports it, and may still be starting on the
# last uploads (authorizing, then opening its spool file) when the folder is first seen empty: wait
# until it has stayed empty for a whole second.
waited, empty_since = 0.0, None
while waited < 10:
    empty = not (os.listdir(spool) if os.path.isdir(spool) else [])
    empty_since = (empty_since if empty_since is not None else waited) if empty else None
    if empty_since is not None and waited - empty_since >= 1.0:
        break
    time.sleep(0.2)
    waited += 0.2
after = rss()
photos = len(call(f"{base}/v1/items/{item}/reviews").body["data"][0]["photos"])
leftovers = os.listdir(spool) if os.path.isdir(spool) else []
expect(photos == 1, f"20 uploads cut off midway recorded nothing ({photos} photo on the review)")
expect(not leftovers, f"no spooled file left behind ({len(leftovers)} in {spool} after {waited:.1f} s)")
expect(after - before < 16 * 1024, f"RSS {before // 1024} MiB before, {after // 1024} MiB after the 20 cut-off uploads")
expect(call(base + "/health").status == 200, "the server still answers")

for mode in ["500", "hang", "close"]:
    call(f"{proxy}/__fault/{mode}", "PUT")
    started = time.monotonic()
    answers = [upload(token, review, 100_000, 10**9) for _ in range(2)]
    took = (time.monotonic() - started) / 2
    photos = len(call(f"{base}/v1/items/{item}/reviews").body["data"][0]["photos"])
    expect(answers == ["502"] * 2 and photos == 1, f"media API {mode}: {answers} in {took:.1f} s each, still 1 photo recorded")
    expect(not (os.listdir(spool) if os.path.isdir(spool) else []), f"media API {mode}: no spooled file left behind")
call(f"{proxy}/__fault/ok", "PUT")
expect(upload(token, review, 100_000, 10**9) == "201", "the media API healed: the next upload is stored (201)")
sys.exit(exit_status())
