#!/usr/bin/env python3
"""The load of Benchmarks/checkout: CUSTOMERS clients, each putting one unit of one of three hot
items in its cart and checking out, again and again, for DURATION seconds.

    checkout-load.py BASE_URL ADMIN_TOKEN DATABASE_URL CUSTOMERS DURATION SERVER_PID
"""
import collections
import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

base, admin, database = sys.argv[1:4]
customers, duration, server = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
STOCK = 300


def call(method, path, body=None, token=None, headers=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


items = []
for n in range(3):
    status, body = call("POST", "/v1/admin/items", {"sku": f"HOT-{n}", "name": f"Hot {n}", "category": "hot",
                                                   "price": {"amount": 980, "currency": "JPY"}, "stock": STOCK}, admin)
    items.append(body["id"])
tokens = []
for n in range(customers):
    email = f"bench-{n}@example.com"
    call("POST", "/v1/customers", {"email": email, "password": "bench password 1", "name": "B"})
    tokens.append(call("POST", "/v1/sessions", {"email": email, "password": "bench password 1"})[1]["token"])

latencies, statuses, lock = [], collections.Counter(), threading.Lock()
deadline = time.monotonic() + duration


def client(token):
    rng = random.Random(token)
    while time.monotonic() < deadline:
        call("PUT", f"/v1/cart/items/{rng.choice(items)}", {"quantity": 1}, token)
        started = time.monotonic()
        status, _ = call("POST", "/v1/orders", {"payment_method": "pm_card_visa"}, token, {"Idempotency-Key": uuid.uuid4().hex})
        with lock:
            latencies.append(time.monotonic() - started)
            statuses[status] += 1


threads = [threading.Thread(target=client, args=(token,)) for token in tokens]
started = time.monotonic()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.monotonic() - started

latencies.sort()
percentile = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000
paid = statuses[201]
rows = subprocess.run(["psql", database, "-qtAc",
                       "SELECT i.stock, coalesce(sum(l.quantity) FILTER (WHERE o.status = 'paid'), 0) FROM items i "
                       "LEFT JOIN order_lines l ON l.item_id = i.id LEFT JOIN orders o ON o.id = l.order_id "
                       "WHERE i.sku LIKE 'HOT-%' GROUP BY i.id, i.stock"], capture_output=True, text=True, check=True).stdout.split()
oversold = sum(max(0, int(sold) - STOCK) for _, sold in (row.split("|") for row in rows))
inconsistent = sum(1 for stock, sold in (row.split("|") for row in rows) if int(stock) + int(sold) != STOCK)
peak = next(line.split()[1] for line in open(f"/proc/{server}/status") if line.startswith("VmHWM"))
print(f"checkouts: {dict(statuses)} in {elapsed:.1f} s with {customers} customers")
print(f"orders/s {paid / elapsed:.1f}")
print(f"latency p50 {percentile(0.50):.1f} ms, p99 {percentile(0.99):.1f} ms")
print(f"oversells {oversold}; items whose stock + paid units differ from the initial stock: {inconsistent}")
print(f"server peak RSS {int(peak) / 1024:.1f} MiB")
sys.exit(1 if oversold or inconsistent else 0)
