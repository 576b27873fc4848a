# PyTorch on the same GPU, for the sizes bench/gpu.sh uses.  PyTorch's eager
# sin is one pass per call: it is compared with the runner's unfused
# nested_sin.  Prints: NAME SIZE SECONDS
#   torch_matmul, torch_sin4_unfused: events around each call, median of 20
#     after three warmups (how the first bench table was made);
#   *_b2b: one pair of events around a run of back-to-back calls (at least
#     1 ms of them), over the calls, median of 20 runs: how PyTorch's and
#     Triton's timers time a kernel, and what the runner's device_median
#     measures for a batch of io: without calls (doc/timing.md, step 6).
import statistics, torch
def med(f, reps=20):
    for _ in range(3):
        f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); f(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b) * 1e-3)
    return statistics.median(ts)
def b2b(f, reps=20):
    one = med(f, 5)
    calls = max(1, min(100000, int(1e-3 / max(one, 1e-7))))
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(calls):
            f()
        b.record(); b.synchronize()
        ts.append(a.elapsed_time(b) * 1e-3 / calls)
    return statistics.median(ts)
torch.backends.cuda.matmul.allow_tf32 = False
for n in (1024, 2048, 4096, 8192):
    x = torch.rand(n, n, device="cuda") * 2 - 1; y = torch.rand(n, n, device="cuda") * 2 - 1
    print("torch_matmul", n, med(lambda: x @ y))
    if n == 1024:
        z = torch.empty(n, n, device="cuda")
        print("torch_matmul_b2b", n, b2b(lambda: torch.mm(x, y, out=z)))
x = torch.rand(1 << 28, device="cuda")
print("torch_sin4_unfused", 1 << 28, med(lambda: x.sin().sin().sin().sin()))
# four passes through two buffers, as the runner's unfused nested_sin
def sin4(x, y1, y2):
    torch.sin(x, out=y1); torch.sin(y1, out=y2); torch.sin(y2, out=y1); torch.sin(y1, out=y2)
for e in (24, 28):
    y1, y2 = torch.empty_like(x[: 1 << e]), torch.empty_like(x[: 1 << e])
    xs = x[: 1 << e]
    print("torch_sin4_out_b2b", 1 << e, b2b(lambda: sin4(xs, y1, y2)))
del y1, y2
xs, y1 = x[: 1 << 22], torch.empty(1 << 22, device="cuda")
print("torch_sin1_out_b2b", 1 << 22, b2b(lambda: torch.sin(xs, out=y1)))
