#!/usr/bin/env python3
"""A reference for Benchmarks/checkout: the payment provider alone. CLIENTS threads each create and
confirm PaymentIntents at localstripe (what one checkout asks of it) for DURATION seconds; prints
the pairs per second.

    localstripe-load.py PAYMENT_URL CLIENTS DURATION
"""
import sys
import threading
import time
import urllib.parse
import urllib.request

url, clients, duration = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
done, lock = [0], threading.Lock()
deadline = time.monotonic() + duration


def post(path, form):
    request = urllib.request.Request(url + path, data=urllib.parse.urlencode(form).encode(), method="POST")
    request.add_header("Authorization", "Bearer sk_test_bench")
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def client():
    import json
    while time.monotonic() < deadline:
        intent = json.loads(post("/v1/payment_intents", {"amount": 980, "currency": "jpy", "payment_method": "pm_card_visa"}))
        post(f"/v1/payment_intents/{intent['id']}/confirm", {})
        with lock:
            done[0] += 1


started = time.monotonic()
threads = [threading.Thread(target=client) for _ in range(clients)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(f"{done[0] / (time.monotonic() - started):.1f}")
