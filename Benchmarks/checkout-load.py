#!/usr/bin/env python3
"""The load of Benchmarks/checkout: CUSTOMERS clients, each putting one unit of one of three hot
items in its cart and checking out, again and again, for DURATION seconds.

    checkout-load.py BASE_URL ADMIN_TOKEN DATABASE_URL CUSTOMERS DURATION SERVER_PID
"""
import collections
import os
import random
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tools", "lib"))
from drill import call, customer, item, sql  # noqa: E402

base, admin, database = sys.argv[1:4]
customers, duration, server = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
STOCK = 300
items = [item(base, admin, STOCK, sku=f"HOT-{n}") for n in range(3)]
tokens = [customer(base) for _ in range(customers)]

latencies, statuses, lock = [], collections.Counter(), threading.Lock()
deadline = time.monotonic() + duration


def client(token):
    rng = random.Random(token)
    while time.monotonic() < deadline:
        call(f"{base}/v1/cart/items/{rng.choice(items)}", "PUT", {"quantity": 1}, token)
        answer = call(base + "/v1/orders", "POST", {"payment_method": "pm_card_visa"}, token, {"Idempotency-Key": uuid.uuid4().hex})
        with lock:
            latencies.append(answer.seconds)
            statuses[answer.status] += 1


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
rows = sql(database, "SELECT v.stock, coalesce(sum(l.quantity) FILTER (WHERE o.status = 'paid'), 0) FROM item_variants v "
                     "LEFT JOIN order_lines l ON l.variant_id = v.id LEFT JOIN orders o ON o.id = l.order_id "
                     "WHERE v.sku LIKE 'HOT-%' GROUP BY v.id, v.stock").split()
oversold = sum(max(0, int(sold) - STOCK) for _, sold in (row.split("|") for row in rows))
inconsistent = sum(1 for stock, sold in (row.split("|") for row in rows) if int(stock) + int(sold) != STOCK)
peak = next(line.split()[1] for line in open(f"/proc/{server}/status") if line.startswith("VmHWM"))
print(f"checkouts: {dict(statuses)} in {elapsed:.1f} s with {customers} customers")
print(f"orders/s {paid / elapsed:.1f}")
print(f"latency p50 {percentile(0.50):.1f} ms, p99 {percentile(0.99):.1f} ms")
print(f"oversells {oversold}; items whose stock + paid units differ from the initial stock: {inconsistent}")
print(f"server peak RSS {int(peak) / 1024:.1f} MiB")
sys.exit(1 if oversold or inconsistent else 0)
