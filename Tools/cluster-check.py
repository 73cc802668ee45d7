#!/usr/bin/env python3
"""The concurrency checks of Commerce through nginx over two instances (run by Tools/cluster
--check): 50 customers racing for 10 units, one idempotency key sent 5 times at once, then steady
reads and cart writes while one instance is stopped. Prints the figures; exits 1 on a failure.

    Tools/cluster-check.py BASE_URL ADMIN_TOKEN PID_OF_INSTANCE_A DATABASE_URL
"""
import collections
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

base, admin, instance_a, database = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
failures = []


def call(method, path, body=None, token=None, headers=None):
    """(status, json body or None, upstream) of one request."""
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            data = response.read()
            return response.status, json.loads(data) if data else None, response.headers.get("X-Upstream")
    except urllib.error.HTTPError as error:
        data = error.read()
        return error.code, json.loads(data) if data else None, error.headers.get("X-Upstream")
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        return 0, {"error": str(error)}, None


def sql(query):
    return subprocess.run(["psql", database, "-qtAc", query], capture_output=True, text=True, check=True).stdout.strip()


def expect(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def item(stock):
    status, body, _ = call("POST", "/v1/admin/items", {"sku": "CLUSTER-" + uuid.uuid4().hex[:8], "name": "Hot item",
                                                     "category": "cluster", "price": {"amount": 1200, "currency": "JPY"},
                                                     "stock": stock}, admin)
    assert status == 201, (status, body)
    return body["id"]


def customer(n):
    email = f"cluster-{uuid.uuid4().hex[:10]}@example.com"
    status, body, _ = call("POST", "/v1/customers", {"email": email, "password": "cluster password 1", "name": f"C{n}"})
    assert status == 201, (status, body)
    status, body, _ = call("POST", "/v1/sessions", {"email": email, "password": "cluster password 1"})
    assert status == 201, (status, body)
    return body["token"]


# 1. Fifty customers race for ten units, their requests spread over both instances.
hot = item(10)
with ThreadPoolExecutor(8) as pool:
    tokens = list(pool.map(customer, range(50)))
with ThreadPoolExecutor(16) as pool:
    carts = list(pool.map(lambda t: call("PUT", f"/v1/cart/items/{hot}", {"quantity": 1}, t)[0], tokens))
expect(carts.count(200) == 50, f"50 carts filled through nginx ({collections.Counter(carts)})")
barrier = threading.Barrier(50)


def checkout(token):
    barrier.wait()
    return call("POST", "/v1/orders", {"payment_method": "pm_card_visa"}, token, {"Idempotency-Key": uuid.uuid4().hex})


started = time.monotonic()
with ThreadPoolExecutor(50) as pool:
    results = list(pool.map(checkout, tokens))
elapsed = time.monotonic() - started
statuses = collections.Counter(status for status, _, _ in results)
upstreams = collections.Counter(upstream for _, _, upstream in results)
print(f"      50 checkouts in {elapsed:.2f} s: {dict(statuses)}, served by {dict(upstreams)}")
expect(statuses[201] == 10 and statuses[409] == 40, "exactly 10 paid (201) and 40 refused for stock (409)")
expect(len([u for u in upstreams if u]) == 2, "both instances served checkouts")
stock = call("GET", f"/v1/items/{hot}")[1]["stock"]
paid = int(sql(f"SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id "
               f"WHERE l.item_id = '{hot}' AND o.status = 'paid'"))
expect(stock == 0 and paid == 10, f"stock {stock}, units in paid orders {paid}: no oversell")

# 2. One idempotency key sent five times at once, over both instances: one order.
calm = item(5)
token = customer(99)
call("PUT", f"/v1/cart/items/{calm}", {"quantity": 1}, token)
key = uuid.uuid4().hex
barrier = threading.Barrier(5)


def replay(_):
    barrier.wait()
    return call("POST", "/v1/orders", {"payment_method": "pm_card_visa"}, token, {"Idempotency-Key": key})


with ThreadPoolExecutor(5) as pool:
    replays = list(pool.map(replay, range(5)))
ids = {body.get("id") for status, body, _ in replays if status in (200, 201, 202)}
orders = int(sql(f"SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.item_id = '{calm}'"))
print(f"      same key x5: {collections.Counter(s for s, _, _ in replays)}, served by "
      f"{dict(collections.Counter(u for _, _, u in replays))}")
expect(orders == 1 and len(ids) <= 1, f"one order for one key ({orders} in the database)")

# 3. Steady reads and cart writes while instance A stops: only what it had in flight may fail.
stop = threading.Event()
outcomes = collections.Counter()
lock = threading.Lock()


def load(n):
    while not stop.is_set():
        if n % 2:
            status, _, upstream = call("GET", "/v1/items?limit=5")
        else:
            status, _, upstream = call("PUT", f"/v1/cart/items/{calm}", {"quantity": 1}, tokens[n])
        with lock:
            outcomes[(status, upstream)] += 1


with ThreadPoolExecutor(8) as pool:
    for n in range(8):
        pool.submit(load, n)
    time.sleep(1.5)
    os.kill(instance_a, signal.SIGTERM)
    stopped_at = time.monotonic()
    time.sleep(3)
    stop.set()
total = sum(outcomes.values())
failed = sum(count for (status, _), count in outcomes.items() if not 200 <= status < 300)
by_upstream = collections.Counter()
for (status, upstream), count in outcomes.items():
    by_upstream[upstream] += count
failed_statuses = collections.Counter(status for (status, _), count in outcomes.items() for _ in range(count) if not 200 <= status < 300)
print(f"      {total} requests while instance A stopped: {failed} failed {dict(failed_statuses)}; by upstream {dict(by_upstream)}")
expect(failed <= 8, f"at most the 8 requests in flight at the stop failed ({failed} did)")
sys.exit(1 if failures else 0)
