import threading

import torch

x = torch.ones(2, requires_grad=True)
seen = {}


def worker(name):
    y = x * 2
    seen[name] = (torch.is_grad_enabled(), y.requires_grad, y.grad_fn is not None)


with torch.no_grad():
    t = threading.Thread(target=worker, args=("inside no_grad",))
    t.start()
    t.join()
    print("main under no_grad:", torch.is_grad_enabled(), (x * 2).requires_grad)
print(seen)


def off_worker():
    torch.set_grad_enabled(False)
    seen["worker after set_grad_enabled(False)"] = torch.is_grad_enabled()


t = threading.Thread(target=off_worker)
t.start()
t.join()
print(seen["worker after set_grad_enabled(False)"], "main:", torch.is_grad_enabled())

with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    a = x * 2
    print(a.requires_grad, a.is_inference())
    with torch.inference_mode(mode=False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        b = x * 2
        print(b.requires_grad, b.grad_fn, b.is_inference())
        with torch.no_grad():
            c = x * 2
            print(c.requires_grad)
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())

with torch.no_grad():
    with torch.inference_mode(mode=False):
        print("no_grad + inference_mode(False):", torch.is_grad_enabled())
with torch.no_grad():
    with torch.inference_mode():
        with torch.inference_mode(False):
            print("no_grad + inference_mode + inference_mode(False):", torch.is_grad_enabled())


def infer_worker():
    seen["thread inference"] = torch.is_inference_mode_enabled()


with torch.inference_mode():
    t = threading.Thread(target=infer_worker)
    t.start()
    t.join()
print(seen["thread inference"])

torch.autograd.set_detect_anomaly(True)


def anomaly_worker():
    seen["thread anomaly"] = torch.is_anomaly_enabled()


t = threading.Thread(target=anomaly_worker)
t.start()
t.join()
torch.autograd.set_detect_anomaly(False)
print(seen["thread anomaly"])


@torch.no_grad()
def decorated():
    return torch.is_grad_enabled()


res = []
ts = [threading.Thread(target=lambda: res.append(decorated())) for _ in range(3)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(res, torch.is_grad_enabled())
