"""``benchmarks.api_coverage`` against the installed mindspore 2.10."""
def test_coverage_script_counts_every_family():
    from benchmarks.api_coverage import markdown, measure

    families = measure()
    assert [f.name for f in families] == ["ops functions (lower-case)", "ops Primitives (upper-case)", "nn classes",
                                          "Tensor methods"]
    for f in families:
        assert 0 < f.present <= len(f.reference) and set(f.missing) <= set(f.reference)
    assert "unstack" not in families[0].missing and "CellDict" not in families[2].missing
    assert markdown(families).count("\n") == 5
