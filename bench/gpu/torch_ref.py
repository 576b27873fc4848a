# PyTorch on the same GPU, timed the same way (events, median of 20, after
# three warmups), for the sizes bench/gpu.sh uses.  PyTorch's eager sin is one
# pass per call: it is compared with the runner's unfused nested_sin.
# Prints: NAME SIZE SECONDS
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
torch.backends.cuda.matmul.allow_tf32 = False
for n in (1024, 2048, 4096, 8192):
    x = torch.rand(n, n, device="cuda") * 2 - 1; y = torch.rand(n, n, device="cuda") * 2 - 1
    print("torch_matmul", n, med(lambda: x @ y))
x = torch.rand(1 << 28, device="cuda")
print("torch_sin4_unfused", 1 << 28, med(lambda: x.sin().sin().sin().sin()))
