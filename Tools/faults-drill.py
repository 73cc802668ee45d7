#!/usr/bin/env python3
"""The load and the checks of Tools/faults: 8 clients reading items and checking out, PostgreSQL
stopped after 2 s and started again 4 s later, 4 s more load.

    Tools/faults-drill.py BASE_URL ADMIN_TOKEN DATABASE_URL STOP_COMMAND START_COMMAND
"""
import collections
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

base, admin, database, stop_command, start_command = sys.argv[1:6]
failures = []


def call(method, path, body=None, token=None, headers=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            data = response.read()
            return response.status, json.loads(data) if data else None, response.headers.get("Content-Type"), time.monotonic() - started
    except urllib.error.HTTPError as error:
        data = error.read()
        return error.code, json.loads(data) if data else None, error.headers.get("Content-Type"), time.monotonic() - started
    except Exception as error:  # connection refused, reset, timeout: the service itself failed
        return 0, {"error": str(error)}, None, time.monotonic() - started


def expect(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


status, body, _, _ = call("POST", "/v1/admin/items", {"sku": "FAULT-1", "name": "Plenty", "category": "faults",
                                                     "price": {"amount": 500, "currency": "JPY"}, "stock": 100000}, admin)
assert status == 201, body
item = body["id"]
tokens = []
for n in range(4):
    email = f"fault-{uuid.uuid4().hex[:8]}@example.com"
    call("POST", "/v1/customers", {"email": email, "password": "fault password 1", "name": "F"})
    tokens.append(call("POST", "/v1/sessions", {"email": email, "password": "fault password 1"})[1]["token"])

phase = ["before"]
records = []  # (phase, kind, status, content type, seconds, order id)
lock = threading.Lock()
stop = threading.Event()


def client(n):
    token = tokens[n % 4]
    while not stop.is_set():
        if n < 4:
            status, body, content_type, seconds = call("GET", "/v1/items?limit=5")
            order = None
        else:
            call("PUT", f"/v1/cart/items/{item}", {"quantity": 1}, token)
            status, body, content_type, seconds = call("POST", "/v1/orders", {"payment_method": "pm_card_visa"}, token,
                                                       {"Idempotency-Key": uuid.uuid4().hex})
            order = body.get("id") if status == 201 and body else None
        with lock:
            records.append((phase[0], "read" if n < 4 else "checkout", status, content_type, seconds, order, time.monotonic()))


threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
for thread in threads:
    thread.start()
time.sleep(2)
phase[0] = "down"
subprocess.run(stop_command, shell=True, check=True)
stopped = time.monotonic()
time.sleep(4)
phase[0] = "after"
subprocess.run(start_command, shell=True, check=True)
back = time.monotonic()
time.sleep(4)
stop.set()
for thread in threads:
    thread.join()

by_phase = collections.defaultdict(collections.Counter)
for phase_name, kind, status, _, _, _, _ in records:
    by_phase[phase_name][(kind, status)] += 1
for name in ("before", "down", "after"):
    print(f"      {name:6}: {dict(sorted(by_phase[name].items()))}")

down = [r for r in records if r[0] == "down"]
slowest = max((r[4] for r in down), default=0)
unanswered = [r for r in down if r[2] == 0]
not_problem = [r for r in down if r[2] >= 400 and r[3] != "application/problem+json"]
expect(down and all(r[2] in (503, 202) or 200 <= r[2] < 300 for r in down),
       "while PostgreSQL was down every answer was 503 (or a checkout the provider had already paid)")
expect(not unanswered and not not_problem, f"all of them problem+json, none dropped ({len(unanswered)} dropped)")
expect(slowest < 5, f"the slowest answer while down took {slowest:.2f} s (the pool waits at most 3 s)")
recovered = min((r[6] for r in records if r[0] == "after" and r[1] == "read" and r[2] == 200 and r[6] > back), default=None)
recovery = (recovered - back) if recovered else float("inf")
expect(recovery < 5, f"reads succeeded again {recovery:.2f} s after PostgreSQL was back")
orders = [r[5] for r in records if r[5]]
ids = ",".join(f"'{o}'" for o in orders) or "NULL"
found = int(subprocess.run(["psql", database, "-qtAc", f"SELECT count(*) FROM orders WHERE id IN ({ids})"],
                           capture_output=True, text=True, check=True).stdout.strip())
expect(found == len(orders), f"every order answered 201 is in the database ({found} of {len(orders)})")
sys.exit(1 if failures else 0)
