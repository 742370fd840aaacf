"""RoomyCache: the same keys and values as a DynamicCache after any run of writes and crops,
written in place; it copies what it starts from, blocks of rows left-padded and stacked; rows
and padding can be dropped."""

from __future__ import annotations

import torch
from transformers import DynamicCache

from pipeline.model.kv_cache import RoomyCache


def states(batch: int, length: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(batch, 3, length, 4, generator=generator),
            torch.randn(batch, 3, length, 4, generator=generator))


def same(a, b) -> bool:
    return all(torch.equal(ka, kb) and torch.equal(va, vb)
               for (ka, va, *_), (kb, vb, *_) in zip(a, b, strict=True))


def test_writes_and_crops_match_a_dynamic_cache_past_the_capacity():
    start = [states(2, 5, 0), states(2, 5, 1)]
    roomy = RoomyCache(2, capacity=8, data=[[(*layer, 0)] for layer in start])
    dynamic = DynamicCache(ddp_cache_data=start)
    for step, (length, crop) in enumerate([(1, 0), (3, 2), (1, 0), (6, 1), (4, 0)]):
        for layer in range(2):
            keys, values = states(2, length, 10 * step + layer)
            got = roomy.update(keys, values, layer)
            want = dynamic.update(keys, values, layer)
            assert torch.equal(got[0], want[0]) and torch.equal(got[1], want[1])
        if crop:
            roomy.crop(-crop)
            dynamic.crop(-crop)
        assert same(roomy, dynamic) and roomy.get_seq_length() == dynamic.get_seq_length()
    assert roomy.get_seq_length() == 5 + 1 + 3 - 2 + 1 + 6 - 1 + 4  # it grew past 8


def test_a_write_lands_in_the_buffer_without_copying_the_filled_part():
    roomy = RoomyCache(1, capacity=32, data=[[(*states(1, 10, 0), 0)]])
    buffer = roomy.layers[0].keys.untyped_storage().data_ptr()
    for step in range(20):
        roomy.update(*states(1, 1, step), 0)
    assert roomy.layers[0].keys.untyped_storage().data_ptr() == buffer
    assert roomy.get_seq_length() == 30


def test_the_data_it_starts_from_is_never_written_to():
    keys, values = states(1, 6, 0)
    original = keys.clone()
    roomy = RoomyCache(1, capacity=6, data=[[(keys[:, :, :4], values[:, :, :4], 0)]])
    roomy.update(*states(1, 2, 1), 0)
    assert torch.equal(keys, original)


def test_keep_rows_drops_finished_rows_and_common_left_padding():
    keys, values = states(3, 7, 0)
    roomy = RoomyCache(1, capacity=16, data=[[(keys, values, 0)]])
    roomy.keep_rows([2, 0], trim=3)
    assert torch.equal(roomy.layers[0].keys, keys[[2, 0], :, 3:])
    new_keys, new_values = states(2, 1, 1)
    roomy.update(new_keys, new_values, 0)
    assert torch.equal(roomy.layers[0].values,
                       torch.cat([values[[2, 0], :, 3:], new_values], dim=2))


def test_blocks_are_left_padded_with_zeros_and_stacked_along_the_batch():
    batch, batch_values = states(2, 5, 0)  # a batch of two rows, 5 positions wide
    row, row_values = states(1, 3, 1)  # a row that joins it, 3 positions
    roomy = RoomyCache(1, capacity=12, data=[[(batch, batch_values, 1), (row, row_values, 3)]])
    pad = torch.nn.functional.pad
    assert torch.equal(roomy.layers[0].keys,
                       torch.cat([pad(batch, (0, 0, 1, 0)), pad(row, (0, 0, 3, 0))]))
    assert torch.equal(roomy.layers[0].values,
                       torch.cat([pad(batch_values, (0, 0, 1, 0)), pad(row_values, (0, 0, 3, 0))]))
    assert roomy.get_seq_length() == 6


def test_a_cache_with_a_dtype_keeps_what_it_starts_from_and_every_write_in_it():
    keys, values = states(1, 4, 0)
    roomy = RoomyCache(1, capacity=4, data=[[(keys, values, 1)]], dtype=torch.bfloat16)
    new_keys, new_values = states(1, 6, 1)  # past the capacity: the layer grows
    got_keys, got_values = roomy.update(new_keys, new_values, 0)
    assert got_keys.dtype == got_values.dtype == torch.bfloat16
    assert torch.equal(got_keys[:, :, 1:5], keys.to(torch.bfloat16))
    assert torch.equal(got_values[:, :, 5:], new_values.to(torch.bfloat16))
