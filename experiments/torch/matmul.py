"""Document 002's matmul in PyTorch, for experiments/torch_matmul.yaml.

device cpu: torch.matmul(x, y) on the host.
device cuda, io with: the document's matmul(x.cuda(), y.cuda()).cpu(): both
copies in every call.
device cuda, io without: x and y resident on the GPU; the helper
synchronises the device before the clock stops (the document's fix).
"""
import runner_workload as rw

torch = rw.need("torch")

DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16"}


def setup(p):
    n = p["size"]
    torch.manual_seed(p["seed"])
    dtype = getattr(torch, DTYPES[p["dtype"]])
    x = torch.rand(n, n, dtype=dtype)
    y = torch.rand(n, n, dtype=dtype)
    if p["device"].startswith("cuda") and p["io"] == "without":
        x, y = x.to(p["device"]), y.to(p["device"])
    return {"x": x, "y": y, "copy": p["device"].startswith("cuda") and p["io"] == "with",
            "device": p["device"]}


def run(s, p):
    if s["copy"]:
        return torch.matmul(s["x"].to(s["device"]), s["y"].to(s["device"])).cpu()
    return torch.matmul(s["x"], s["y"])


def flops(p):
    return 2.0 * p["size"] ** 3


rw.serve(setup, run, flops=flops)
