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
STOCK = int(os.environ.get("CHECKOUT_STOCK", "300"))
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


def cpu_seconds(pid):
    """User plus system CPU time of a process so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


threads = [threading.Thread(target=client, args=(token,)) for token in tokens]
cpu_before = cpu_seconds(server)
started = time.monotonic()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.monotonic() - started
cpu = cpu_seconds(server) - cpu_before

latencies.sort()
percentile = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000
paid = statuses[201]
# Units sold: in paid orders, and in orders whose payment is still open (they hold their stock
# until it settles: a 202 at a slow provider).
rows = sql(database, "SELECT v.stock, coalesce(sum(l.quantity) FILTER (WHERE o.status IN "
                     "('paid', 'pending_payment', 'requires_action')), 0) FROM item_variants v "
                     "LEFT JOIN order_lines l ON l.variant_id = v.id LEFT JOIN orders o ON o.id = l.order_id "
                     "WHERE v.sku LIKE 'HOT-%' GROUP BY v.id, v.stock").split()
oversold = sum(max(0, int(sold) - STOCK) for _, sold in (row.split("|") for row in rows))
inconsistent = sum(1 for stock, sold in (row.split("|") for row in rows) if int(stock) + int(sold) != STOCK)
peak = next(line.split()[1] for line in open(f"/proc/{server}/status") if line.startswith("VmHWM"))
print(f"checkouts: {dict(statuses)} in {elapsed:.1f} s with {customers} customers")
print(f"orders/s {paid / elapsed:.1f}")
print(f"latency p50 {percentile(0.50):.1f} ms, p99 {percentile(0.99):.1f} ms")
print(f"server CPU {cpu * 1e6 / max(1, sum(statuses.values())):.0f} us per checkout with its cart request ({cpu:.1f} s, {sum(statuses.values())} checkouts)")
print(f"oversells {oversold}; items whose stock + units sold differ from the initial stock: {inconsistent}")
print(f"server peak RSS {int(peak) / 1024:.1f} MiB")
sys.exit(1 if oversold or inconsistent else 0)
