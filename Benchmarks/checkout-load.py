#!/usr/bin/env python3
"""The load of Benchmarks/checkout: CUSTOMERS clients, each putting one unit of one of three hot
items in its cart and checking out, again and again, for DURATION seconds. Python makes the items
and the customers and checks the stock afterwards; the load itself is LOADER (`checkout-benchmark
load`, compiled), so that it takes little of the cores the service runs on. THINK_MS is each
customer's mean pause after a checkout (0: none).

    checkout-load.py BASE_URL ADMIN_TOKEN DATABASE_URL CUSTOMERS DURATION SERVER_PID LOADER THINK_MS
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tools", "lib"))
from drill import customer, item, sql  # noqa: E402

base, admin, database = sys.argv[1:4]
customers, duration, server, loader, think = int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), sys.argv[7], int(sys.argv[8])
STOCK = int(os.environ.get("CHECKOUT_STOCK", "300"))
items = [item(base, admin, STOCK, sku=f"HOT-{n}") for n in range(3)]
tokens = [customer(base) for _ in range(customers)]


def cpu_seconds(pid):
    """User plus system CPU time of a process so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


with tempfile.TemporaryDirectory() as work:
    for name, lines in (("tokens", tokens), ("items", items)):
        with open(os.path.join(work, name), "w") as file:
            file.write("\n".join(lines) + "\n")
    cpu_before = cpu_seconds(server)
    run = subprocess.run([loader, "load", base, str(customers), str(duration), os.path.join(work, "tokens"), os.path.join(work, "items"), str(think)],
                         check=True, capture_output=True, text=True)
    cpu = cpu_seconds(server) - cpu_before
result = json.loads(run.stdout)
elapsed, latencies = result["elapsed"], result["latencies"]
statuses = {int(status): count for status, count in result["statuses"].items()}

latencies.sort()
percentile = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000
paid = statuses.get(201, 0)
# Units sold: in paid orders, and in orders whose payment is still open (they hold their stock
# until it settles: a 202 at a slow provider).
rows = sql(database, "SELECT v.stock, coalesce(sum(l.quantity) FILTER (WHERE o.status IN "
                     "('paid', 'pending_payment', 'requires_action')), 0) FROM item_variants v "
                     "LEFT JOIN order_lines l ON l.variant_id = v.id LEFT JOIN orders o ON o.id = l.order_id "
                     "WHERE v.sku LIKE 'HOT-%' GROUP BY v.id, v.stock").split()
oversold = sum(max(0, int(sold) - STOCK) for _, sold in (row.split("|") for row in rows))
inconsistent = sum(1 for stock, sold in (row.split("|") for row in rows) if int(stock) + int(sold) != STOCK)
peak = next(line.split()[1] for line in open(f"/proc/{server}/status") if line.startswith("VmHWM"))
print(f"checkouts: {statuses} in {elapsed:.1f} s with {customers} customers" + (f", each pausing {think} ms on average after each" if think else ""))
print(f"orders/s {paid / elapsed:.1f}")
print(f"latency p50 {percentile(0.50):.1f} ms, p99 {percentile(0.99):.1f} ms")
print(f"server CPU {cpu * 1e6 / max(1, sum(statuses.values())):.0f} us per checkout with its cart request ({cpu:.1f} s, {sum(statuses.values())} checkouts)")
print(f"oversells {oversold}; items whose stock + units sold differ from the initial stock: {inconsistent}")
print(f"server peak RSS {int(peak) / 1024:.1f} MiB")
sys.exit(1 if oversold or inconsistent else 0)
