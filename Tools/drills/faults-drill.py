#!/usr/bin/env python3
"""The PostgreSQL part of Tools/faults: 8 clients reading items and checking out and one of the
staff listing paid orders and shipping them, PostgreSQL stopped after 2 s and started again 4 s
later, 4 s more load.

    Tools/drills/faults-drill.py BASE_URL ADMIN_TOKEN DATABASE_URL STOP_COMMAND START_COMMAND
"""
import collections
import os
import subprocess
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from drill import call, customer, exit_status, expect, item, sql  # noqa: E402

base, admin, database, stop_command, start_command = sys.argv[1:6]
plenty = item(base, admin, 100_000, price=500)
tokens = [customer(base) for _ in range(4)]
phase = ["before"]
records = []  # (phase, kind, answer, order id, when)
shipments = []  # the ids of shipments answered 201
lock = threading.Lock()
stop = threading.Event()


def client(n):
    while not stop.is_set():
        if n < 4:
            kind, answer = "read", call(base + "/v1/items?limit=5", timeout=30)
        elif n == 8:
            # The staff: the newest paid order, shipped whole (a 201 here must be a shipment kept).
            page = call(base + "/v1/admin/orders?status=paid&limit=1", token=admin, timeout=30)
            kind, answer = "staff list", page
            paid = (page.body or {}).get("data") or [] if page.status == 200 else []
            if paid:
                answer = call(f"{base}/v1/admin/orders/{paid[0]['order']['id']}/shipments", "POST",
                              {"carrier": "Yamato", "tracking_number": uuid.uuid4().hex[:12]}, admin, timeout=30)
                kind = "ship"
                shipment = answer.body.get("id") if answer.status == 201 and answer.body else None
                with lock:
                    records.append((phase[0], kind, answer, None, time.monotonic()))
                    if shipment:
                        shipments.append(shipment)
                continue
        else:
            call(f"{base}/v1/cart/items/{plenty}", "PUT", {"quantity": 1}, tokens[n % 4], timeout=30)
            kind, answer = "checkout", call(base + "/v1/orders", "POST", {"payment_method": "pm_card_visa"}, tokens[n % 4],
                                            {"Idempotency-Key": uuid.uuid4().hex}, timeout=30)
        order = answer.body.get("id") if answer.status == 201 and answer.body else None
        with lock:
            records.append((phase[0], kind, answer, order, time.monotonic()))


threads = [threading.Thread(target=client, args=(n,)) for n in range(9)]
for thread in threads:
    thread.start()
time.sleep(2)
phase[0] = "down"
subprocess.run(stop_command, shell=True, check=True)
time.sleep(4)
phase[0] = "after"
subprocess.run(start_command, shell=True, check=True)
back = time.monotonic()
time.sleep(4)
stop.set()
for thread in threads:
    thread.join()

for name in ("before", "down", "after"):
    counts = collections.Counter((kind, answer.status) for phase_name, kind, answer, _, _ in records if phase_name == name)
    print(f"      {name:6}: {dict(sorted(counts.items()))}")
down = [answer for phase_name, _, answer, _, _ in records if phase_name == "down"]
expect(down and all(a.status == 503 or 200 <= a.status < 300 for a in down),
       "while PostgreSQL was down every answer was 503 (or a request that had got its connection before)")
dropped = [a for a in down if a.status == 0]
not_problem = [a for a in down if a.status >= 400 and a.headers.get("Content-Type") != "application/problem+json"]
expect(not dropped and not not_problem, f"all of them problem+json, none dropped ({len(dropped)} dropped)")
slowest = max((a.seconds for a in down), default=0)
expect(slowest < 5, f"the slowest answer while down took {slowest:.2f} s (the pool waits at most 3 s)")
recovered = min((when for phase_name, kind, a, _, when in records
                 if phase_name == "after" and kind == "read" and a.status == 200 and when > back), default=None)
recovery = (recovered - back) if recovered else float("inf")
expect(recovery < 5, f"reads succeeded again {recovery:.2f} s after PostgreSQL was back")
orders = [order for _, _, _, order, _ in records if order]
ids = ",".join(f"'{o}'" for o in orders) or "NULL"
found = int(sql(database, f"SELECT count(*) FROM orders WHERE id IN ({ids})"))
expect(found == len(orders), f"every order answered 201 is in the database ({found} of {len(orders)})")
ids = ",".join(f"'{s}'" for s in shipments) or "NULL"
kept = int(sql(database, f"SELECT count(*) FROM shipments WHERE id IN ({ids})"))
expect(shipments and kept == len(shipments), f"every shipment answered 201 is in the database ({kept} of {len(shipments)})")
sys.exit(exit_status())
