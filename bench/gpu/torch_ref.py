# PyTorch on the same GPU, timed the same way (events, median of 20, after a
# warmup), for the sizes bench/gpu.sh uses.  Prints: NAME SIZE SECONDS
import statistics, torch
def med(f, reps=20):
    f(); torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); f(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b) * 1e-3)
    return statistics.median(ts)
for n in (4096, 8192):
    x = torch.rand(n, n, device="cuda"); y = torch.rand(n, n, device="cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    print("torch_matmul", n, med(lambda: x @ y))
x = torch.rand(1 << 28, device="cuda")
print("torch_sin4", 1 << 28, med(lambda: x.sin().sin().sin().sin()))
