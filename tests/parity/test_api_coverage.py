"""``benchmarks.api_coverage`` against the installed mindspore 2.10."""
def test_coverage_script_counts_every_family():
    from benchmarks.api_coverage import markdown, measure

    families = measure()
    assert [f.name for f in families] == ["ops functions (lower-case)", "ops Primitives (upper-case)", "nn classes",
                                          "Tensor methods", "mint functions", "mint.nn classes",
                                          "mint.nn.functional functions"]
    for f in families:
        assert 0 < f.present <= len(f.reference) and set(f.missing) <= set(f.reference)
    assert "unstack" not in families[0].missing and "CellDict" not in families[2].missing
    assert "max" not in families[4].missing and "Conv2d" not in families[5].missing
    assert "absolute_import" not in families[4].reference and "conv2d" in families[6].reference
    assert markdown(families).count("\n") == 8
