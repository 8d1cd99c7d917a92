"""Tensor values on the wire: inline small arrays, summaries of large ones."""

from __future__ import annotations

import numpy as np

from engine.tracing.values import value


def test_small_inline_with_non_finite_as_strings() -> None:
    v = value(np.array([1.0, np.nan, np.inf, -np.inf], dtype=np.float32))
    assert v == {
        "shape": [4],
        "dtype": "float32",
        "values": [1.0, "nan", "inf", "-inf"],
        "nan": 1,
        "inf": 2,
    }
    # finite values carry no counts; NaN/Inf are flagged in every shape
    assert "nan" not in value(np.array([1.0, 2.0]))
    assert value(np.array([[np.nan, 2.0]]))["nan"] == 1
    assert value(np.array(np.inf))["inf"] == 1
    assert value(np.array(2.5))["values"] == 2.5
    assert value(np.array([[True, False]]))["values"] == [[True, False]]


def test_large_summary_matches_numpy() -> None:
    a = np.random.default_rng(0).standard_normal((300, 400)).astype(np.float32)
    a[0, 0], a[1, 1], a[2, 2] = np.nan, np.inf, -np.inf
    v = value(a)
    good = a[np.isfinite(a)].astype(np.float64)
    assert (v["nan"], v["inf"]) == (1, 2)
    assert v["stats"]["min"] == good.min() and v["stats"]["max"] == good.max()
    # display precision: the mean to a millionth of the spread (float32 BLAS sums)
    np.testing.assert_allclose(v["stats"]["mean"], good.mean(), rtol=0, atol=1e-6 * good.std())
    np.testing.assert_allclose(v["stats"]["std"], good.std(ddof=1), rtol=1e-4)
    assert len(v["hist"]["edges"]) == len(v["hist"]["counts"]) + 1
    # float32 as float32's shortest digits (-0.13210486, not float64's -0.13210485875606537)
    assert v["sample"][:2] == ["nan", float(str(a[0, 1]))]
    assert np.float32(v["sample"][1]) == a[0, 1]
    assert "values" not in v


def test_histogram_matches_numpy() -> None:
    from engine.tracing.values import _histogram

    x = np.random.default_rng(1).standard_normal(5000).astype(np.float32)
    counts, edges = _histogram(x, float(x.min()), float(x.max()))
    ref_counts, ref_edges = np.histogram(x, bins=16, range=(float(x.min()), float(x.max())))
    assert counts == ref_counts.tolist()
    np.testing.assert_allclose(edges, ref_edges)
    counts, edges = _histogram(np.full(7, 2.0), 2.0, 2.0)
    ref_counts, ref_edges = np.histogram(np.full(7, 2.0), bins=16)
    assert counts == ref_counts.tolist()
    np.testing.assert_allclose(edges, ref_edges)


def test_std_of_values_far_from_zero_with_a_tiny_spread() -> None:
    # E[x^2] - mean^2 cancels here in float32: the summary must notice and be exact
    a = (1000.0 + 1e-3 * np.random.default_rng(2).standard_normal(10_000)).astype(np.float32)
    v = value(a)
    ref = a.astype(np.float64)
    np.testing.assert_allclose(v["stats"]["mean"], ref.mean(), rtol=1e-6)
    np.testing.assert_allclose(v["stats"]["std"], ref.std(ddof=1), rtol=1e-2)


def test_int_and_bool_summaries() -> None:
    a = np.arange(1000, dtype=np.int64)
    v = value(a)
    assert v["stats"]["mean"] == 499.5 and v["stats"]["min"] == 0 and v["stats"]["max"] == 999
    np.testing.assert_allclose(v["stats"]["std"], a.std(ddof=1))
    b = value(np.arange(100) % 3 == 0)
    assert b["stats"]["max"] == 1.0 and b["stats"]["mean"] == 34 / 100


def test_bfloat16_values_count_their_non_finite_and_have_stats() -> None:
    # NumPy knows bfloat16 (ml_dtypes) as a "void" kind: its NaN went out as JSON null,
    # uncounted, and a large one had no stats or histogram
    import ml_dtypes

    small = np.array([1.5, np.nan, 0.1], dtype=ml_dtypes.bfloat16)
    v = value(small)
    assert v["dtype"] == "bfloat16" and v["nan"] == 1 and v["inf"] == 0
    assert v["values"][:2] == [1.5, "nan"]
    assert np.float32(v["values"][2]) == np.float32(small[2])  # exactly the bfloat16 value
    big = np.tile(small, 40_000)
    s = value(big)
    assert s["nan"] == 40_000 and s["inf"] == 0
    assert s["stats"]["min"] == float(small[2]) and s["stats"]["max"] == 1.5
    assert "nan" in s["sample"] and None not in s["sample"]


def test_subnormal_values_have_a_histogram() -> None:
    # a span of subnormal float32 values: its scale overflows float32 (inf, then negative
    # bins and a ValueError from bincount); the histogram is computed in float64 instead
    a = np.linspace(1e-41, 9e-41, 200).astype(np.float32)
    v = value(a)
    assert sum(v["hist"]["counts"]) == a.size
    expected, _ = np.histogram(a.astype(np.float64), bins=16)
    assert v["hist"]["counts"] == expected.tolist()
