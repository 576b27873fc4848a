"""Document 000's intensive_computation in PyTorch, for
experiments/torch_intensive.yaml: per iteration, draw `length` uniform
numbers, square, sum, and add the sum to a Python number (the document's
`result += torch.sum(torch.rand(1000) ** 2)`), on the trial's device.
"""
import runner_workload as rw

torch = rw.need("torch")


def setup(p):
    torch.manual_seed(p["seed"])
    return {"device": torch.device(p["device"]), "result": 0.0}


def run(s, p):
    result = 0
    for _ in range(p["size"]):
        result += torch.sum(torch.rand(p["length"], device=s["device"]) ** 2)
    s["result"] = result
    return result


def extras(s, p):
    return {"result": float(s["result"])}


rw.serve(setup, run, extras=extras)
