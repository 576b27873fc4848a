// cpp_plugin.cc - a plugin in C++ (tests/test_plugin.c): the public header
// as C++20 sees it, RN_PLUGIN's C linkage, and a workload whose state is a
// C++ object; "sum" adds `size` floats of a std::vector, checked.
#include <runner/workload.h>

#include <cstdio>
#include <numeric>
#include <vector>

namespace {

struct sum_state {
    std::vector<float> x;
    double total = 0;
};

int sum_prepare(const rn_trial *t, void **state, rn_error *)
{
    auto *s = new sum_state;
    s->x.assign(t->size > 0 ? static_cast<size_t>(t->size) : 1000, 1.0f);
    *state = s;
    return RN_PREPARE_OK;
}

int sum_run(void *state, rn_sample *, rn_error *)
{
    auto *s = static_cast<sum_state *>(state);
    s->total = std::accumulate(s->x.begin(), s->x.end(), 0.0);
    return 0;
}

int sum_check(void *state, rn_error *err)
{
    auto *s = static_cast<sum_state *>(state);
    if (s->total == static_cast<double>(s->x.size()))
        return 0;
    std::snprintf(err->msg, sizeof err->msg, "sum: %g, not %zu", s->total, s->x.size());
    return 1;
}

void sum_release(void *state)
{
    delete static_cast<sum_state *>(state);
}

const rn_workload_impl sum = {
    .name = "sum", .prepare = sum_prepare, .run = sum_run, .check = sum_check,
    .release = sum_release,
};

} // namespace

RN_PLUGIN(&sum)
