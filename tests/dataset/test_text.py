"""mindjax.dataset.text: Vocab and the pure-Python text transforms with MindSpore's signatures and outputs."""
import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.dataset import text
from tests.dataset.conftest import rows


def test_vocab_from_list_puts_special_tokens_first_or_last_and_looks_up_both_ways():
    first = text.Vocab.from_list(["home", "world"], special_tokens=["<pad>", "<unk>"])
    assert first.vocab() == {"<pad>": 0, "<unk>": 1, "home": 2, "world": 3}
    last = text.Vocab.from_list(["home", "world"], special_tokens=["<pad>"], special_first=False)
    assert last.vocab() == {"home": 0, "world": 1, "<pad>": 2}
    assert first.tokens_to_ids(["world", "nope"]) == [3, -1] and first.tokens_to_ids("home") == 2
    assert first.ids_to_tokens([0, 9]) == ["<pad>", ""] and first.ids_to_tokens(np.array([2])) == ["home"]
    with pytest.raises(ValueError, match="duplicate token 'a'"):
        text.Vocab.from_list(["a", "a"])


def test_vocab_from_dataset_orders_by_frequency_then_alphabet_with_range_and_top_k():
    data = ds.NumpySlicesDataset({"t": np.array([["b", "a", "c"], ["a", "b", "d"], ["a", "e", "e"]])},
                                 shuffle=False)
    vocab = text.Vocab.from_dataset(data, columns=["t"], special_tokens=["<s>"])
    assert list(vocab.vocab()) == ["<s>", "a", "b", "e", "c", "d"]
    assert list(text.Vocab.from_dataset(data, freq_range=(2, None), top_k=2).vocab()) == ["a", "b"]


def test_vocab_from_file_and_from_dict(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("hello,1\nworld,2\nmore,3\n", encoding="utf-8")
    assert text.Vocab.from_file(str(path), ",", vocab_size=2).vocab() == {"hello": 0, "world": 1}
    assert text.Vocab.from_dict({"x": 5}).tokens_to_ids(["x"]) == [5]
    with pytest.raises(ValueError, match="ids must be non-negative"):
        text.Vocab.from_dict({"x": -1})


def test_lookup_maps_tokens_to_ids_with_unknown_token_and_dtype():
    vocab = text.Vocab.from_list(["a", "b", "<unk>"])
    out = text.Lookup(vocab, "<unk>")(np.array(["b", "z", "a"]))
    assert out.dtype == np.int32 and out.tolist() == [1, 2, 0]
    assert text.Lookup(vocab, data_type=np.int64)(np.array("a")).dtype == np.int64
    with pytest.raises(RuntimeError, match="token 'z' is not in the vocab and no unknown_token is given"):
        text.Lookup(vocab)(np.array(["z"]))


def test_ngram_pads_and_joins_and_gives_an_empty_string_when_too_short():
    out = text.Ngram([2, 1], left_pad=("_", 1), right_pad=("-", 5), separator="+")(np.array(["a", "b"]))
    assert out.tolist() == ["_+a", "a+b", "b+-", "a", "b"]
    assert text.Ngram(3)(np.array(["only", "two"])).tolist() == [""]
    assert text.Ngram(3, separator="-")(np.array(["x", "y", "z"])).tolist() == ["x-y-z"]


def test_sliding_window_truncate_and_sequence_pair():
    assert text.SlidingWindow(3)(np.arange(5)).tolist() == [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
    assert text.SlidingWindow(4)(np.arange(3)).shape == (0, 4)
    assert text.Truncate(2)(np.array([[1, 2, 3], [4, 5, 6]])).tolist() == [[1, 2], [4, 5]]
    a, b = text.TruncateSequencePair(4)(np.array(["1", "2", "3"]), np.array(["4", "5"]))
    assert a.tolist() == ["1", "2"] and b.tolist() == ["4", "5"]
    a, b = text.TruncateSequencePair(3)(np.array([1, 2]), np.array([3, 4]))
    assert a.tolist() == [1, 2] and b.tolist() == [3]


def test_to_number_parses_and_rejects_out_of_range():
    out = text.ToNumber(np.int16)(np.array(["1", "-30"]))
    assert out.dtype == np.int16 and out.tolist() == [1, -30]
    assert text.ToNumber(np.float32)(np.array(["2.5"])).tolist() == [2.5]
    with pytest.raises(RuntimeError, match="string '300' is out of bounds for int8"):
        text.ToNumber(np.int8)(np.array(["300"]))
    with pytest.raises(RuntimeError, match="string 'x' is not a valid int32"):
        text.ToNumber(np.int32)(np.array(["x"]))


def test_tokenizers_give_tokens_and_utf8_byte_offsets():
    words, start, limit = text.WhitespaceTokenizer(with_offsets=True)(np.array("héllo  world"))
    assert words.tolist() == ["héllo", "world"] and start.tolist() == [0, 8] and limit.tolist() == [6, 13]
    assert start.dtype == np.uint32
    chars, start, limit = text.UnicodeCharTokenizer(True)(np.array("aé"))
    assert chars.tolist() == ["a", "é"] and start.tolist() == [0, 1] and limit.tolist() == [1, 3]
    assert text.WhitespaceTokenizer()(np.array("   ")).tolist() == [""]
    assert text.RegexTokenizer(r"\s+|,", ",")(np.array("a, b c")).tolist() == ["a", ",", "b", "c"]
    assert text.PythonTokenizer(lambda s: s.split("-"))(np.array("x-y")).tolist() == ["x", "y"]


def test_bert_tokenizer_keeps_special_tokens_lowercases_and_splits_wordpieces():
    vocab = text.Vocab.from_list(["un", "##aff", "##able", "[UNK]", "hello", ","])
    out = text.BertTokenizer(vocab, lower_case=True)(np.array("Unaffable, HELLO [UNK] xyz"))
    assert out.tolist() == ["un", "##aff", "##able", ",", "hello", "[UNK]", "[UNK]"]
    assert text.BasicTokenizer()(np.array("中国 ok!")).tolist() == ["中", "国", "ok", "!"]
    pieces = text.WordpieceTokenizer(vocab, unknown_token="")(np.array(["unaffable", "zzz"]))
    assert pieces.tolist() == ["un", "##aff", "##able", "zzz"]


def test_string_transforms_case_fold_normalize_replace_add_token():
    assert text.CaseFold()(np.array(["Straße"])).tolist() == ["strasse"]
    assert text.NormalizeUTF8(text.NormalizeForm.NFKC)(np.array("ﬁ")).tolist() == "fi"
    assert text.RegexReplace("a+", "b")(np.array(["caaat aa"])).tolist() == ["cbt b"]
    assert text.RegexReplace("a", "b", replace_all=False)(np.array("aaa")).tolist() == "baa"
    assert text.AddToken("[CLS]")(np.array(["x"])).tolist() == ["[CLS]", "x"]
    assert text.AddToken("[SEP]", begin=False)(np.array(["x"])).tolist() == ["x", "[SEP]"]


def test_text_transforms_run_in_a_pipeline():
    vocab = text.Vocab.from_list(["hello", "world"])
    data = ds.NumpySlicesDataset({"s": np.array(["hello world", "world"])}, shuffle=False)
    data = data.map([text.WhitespaceTokenizer(), text.Lookup(vocab)], input_columns="s")
    assert [r[0].tolist() for r in rows(data)] == [[0, 1], [1]]
    assert text.to_str(text.to_bytes(np.array(["a"]))).tolist() == ["a"]
