"""CSV import (all or nothing, every bad row reported) and export (formula-safe, round trip)."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from collecting import csv_format as collection_csv
from collecting import services as svc
from collecting.models import Collection, CollectionChip, CollectionEntry
from collecting.selectors import export_rows
from collecting.services import CollectionImportError
from config.api import DomainError
from tests.collecting.collection_fixtures import *  # noqa: F403

FULL_HEADER = "set_code,collector_number,name,condition,quantity,notes\r\n"


def _import(collection, text: str | bytes, mode: str = "add"):
    data = text.encode() if isinstance(text, str) else text
    return svc.collection_import_csv(collection=collection, file=io.BytesIO(data), mode=mode)


def _errors(collection, text, mode="add") -> list[dict]:
    with pytest.raises(CollectionImportError) as exc:
        _import(collection, text, mode)
    return exc.value.problems


def _snapshot(collection):
    return sorted(
        collection.entries.values_list("card__code", "condition", "quantity", "notes")
    ), sorted(collection.chips.values_list("kicker_chip__code", "quantity"))


def test_full_form_imports_cards_and_chips(binder, common, rare, chip):
    text = (
        FULL_HEADER
        + f'HSD,{common.number},"{common.name}",Near Mint,3,first\r\n'
        + f"HSD,{rare.number},,Mint,1,\r\n"
        + f"HSD,{chip.code.split('-')[1]},{chip.code},,2,\r\n"
    )
    result = _import(binder, text)
    assert (result.rows, result.card_copies, result.chip_copies) == (3, 4, 2)
    assert binder.entries.get(card=common).notes == "first"
    assert binder.entries.get(card=rare).condition == "mint"
    assert binder.chips.get().quantity == 2


def test_short_form_with_and_without_header(binder, common, chip):
    _import(binder, f"code,qty\n{common.code},2\n{chip.code},1\n")
    _import(binder, f"{common.code},1\n")
    assert binder.entries.get().quantity == 3
    assert binder.entries.get().condition == "near_mint"
    assert binder.chips.get().quantity == 1


def test_bom_and_crlf_are_fine(binder, common):
    _import(binder, ("\ufeffcode,qty\r\n" + f"{common.code},2\r\n").encode("utf-8"))
    assert binder.entries.get().quantity == 2


def test_duplicate_rows_add_up_and_the_last_note_wins(binder, common):
    text = FULL_HEADER + f"HSD,{common.number},,NM,1,a\nHSD,{common.number},,Near Mint,2,b\n"
    result = _import(binder, text)
    entry = binder.entries.get()
    assert (entry.quantity, entry.notes, result.entries) == (3, "b", 1)


def test_import_adds_to_what_is_there_and_replace_replaces(binder, common, rare):
    svc.entry_adjust(collection=binder, card=common, delta=2)
    _import(binder, f"code,qty\n{common.code},1\n")
    assert binder.entries.get(card=common).quantity == 3
    _import(binder, f"code,qty\n{rare.code},1\n", mode="replace")
    assert list(binder.entries.values_list("card", flat=True)) == [rare.pk]


def test_every_bad_row_is_reported_and_nothing_is_written(binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=1)
    before = _snapshot(binder)
    text = (
        FULL_HEADER
        + f"HSD,{common.number},,Near Mint,2,\n"  # line 2 fine
        + "HSD,999,,Near Mint,1,\n"  # line 3 unknown card
        + f"HSD,{common.number},,Near Mint,-4,\n"  # line 4 negative
        + f"HSD,{common.number},,Pristine,1,\n"  # line 5 bad condition
        + f"HSD,{common.number},Somebody Else,Near Mint,1,\n"  # line 6 wrong name
        + "HSD,K99,,,1,\n"  # line 7 unknown chip
        + f"HSD,{common.number},,Near Mint,lots,\n"  # line 8 not a number
    )
    errors = _errors(binder, text)
    assert [(e["line"], e["column"], e["code"]) for e in errors] == [
        (3, "collector_number", "unknown_card"),
        (4, "quantity", "quantity_out_of_range"),
        (5, "condition", "invalid_condition"),
        (6, "name", "name_mismatch"),
        (7, "collector_number", "unknown_chip"),
        (8, "quantity", "invalid_quantity"),
    ]
    assert _snapshot(binder) == before


@pytest.mark.parametrize("qty", ["0", "-1", "10000", "99999999999999999999", "1.5", ""])
def test_absurd_quantities_are_refused(binder, common, qty):
    errors = _errors(binder, f"code,qty\n{common.code},{qty}\n")
    assert errors[0]["line"] == 2
    assert CollectionEntry.objects.count() == 0


def test_rows_that_would_pass_the_entry_limit_are_refused(binder, common):
    svc.entry_adjust(collection=binder, card=common, delta=9000)
    errors = _errors(binder, f"code,qty\n{common.code},500\n{common.code},500\n")
    assert errors[0]["line"] == 3 and errors[0]["code"] == "quantity_out_of_range"
    assert binder.entries.get().quantity == 9000


def test_unknown_codes_are_refused(binder):
    errors = _errors(binder, "code,qty\nHSD-999,1\nZZZ-001,1\nnot a code,1\n")
    assert [e["code"] for e in errors] == ["unknown_card", "unknown_card", "invalid_code"]
    assert CollectionEntry.objects.count() == 0


def test_a_truncated_csv_is_refused(binder, common):
    errors = _errors(binder, f'code,qty\n{common.code},1\n"{common.code},1\n')
    assert errors[-1]["code"] == "malformed_csv"
    assert CollectionEntry.objects.count() == 0


def test_a_row_cut_short_is_refused(binder, common):
    errors = _errors(binder, FULL_HEADER + f"HSD,{common.number}\n")
    assert (errors[0]["line"], errors[0]["code"]) == (2, "missing_cell")
    assert CollectionEntry.objects.count() == 0


def test_a_binary_file_is_refused(binder):
    errors = _errors(binder, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    assert errors[0]["code"] == "binary_file"
    errors = _errors(binder, b"code,qty\n\xff\xfe\xfa,1\n")
    assert (errors[0]["code"], errors[0]["line"]) == ("not_utf8", 2)
    assert CollectionEntry.objects.count() == 0


def test_a_bad_header_is_refused(binder):
    errors = _errors(binder, "set_code,colour,quantity\nHSD,1,1\n")
    assert {e["code"] for e in errors} == {"unknown_column", "missing_column"}
    assert _errors(binder, "")[0]["code"] == "empty_file"
    assert _errors(binder, "code,qty\n")[0]["code"] == "no_rows"


def test_the_size_limit(binder, monkeypatch):
    monkeypatch.setattr(collection_csv, "MAX_BYTES", 100)
    errors = _errors(binder, "code,qty\n" + "HSD-001,1\n" * 20)
    assert errors[0]["code"] == "file_too_large"
    upload = SimpleUploadedFile("big.csv", b"x" * 101)
    with pytest.raises(CollectionImportError):
        svc.collection_import_csv(collection=binder, file=upload)


def test_the_row_limit(binder, common, monkeypatch):
    monkeypatch.setattr(collection_csv, "MAX_ROWS", 3)
    errors = _errors(binder, "code,qty\n" + f"{common.code},1\n" * 4)
    assert (errors[-1]["code"], errors[-1]["line"]) == ("too_many_rows", 5)
    assert CollectionEntry.objects.count() == 0


def test_a_bad_mode_is_refused(binder, common):
    with pytest.raises(DomainError):
        _import(binder, f"code,qty\n{common.code},1\n", mode="merge")


def _export(collection, shape="full") -> str:
    header, rows = export_rows(collection=collection, shape=shape)
    return "".join(collection_csv.write(rows, header=header))


@pytest.mark.parametrize("shape", ["full", "short"])
def test_export_then_import_gives_the_same_collection(user, binder, common, uncommon, chip, shape):
    svc.entry_adjust(collection=binder, card=common, delta=3, condition="mint")
    svc.entry_adjust(collection=binder, card=common, delta=1, condition="poor")
    svc.entry_adjust(collection=binder, card=uncommon, delta=2)
    svc.chip_adjust(collection=binder, kicker_chip=chip, delta=2)
    entry = binder.entries.get(card=uncommon)
    svc.entry_update(entry=entry, notes='=HYPERLINK("http://evil")' if shape == "full" else "")
    text = _export(binder, shape)
    copy = Collection.objects.create(owner=user, name="Copy")
    _import(copy, text)
    assert _snapshot(copy) == _snapshot(binder)
    assert text.endswith("\r\n")


@pytest.mark.parametrize("dangerous", ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "'=x"])
def test_exported_cells_cannot_run_as_formulas(binder, common, dangerous):
    svc.entry_adjust(collection=binder, card=common, delta=1)
    svc.entry_update(entry=binder.entries.get(), notes=dangerous)
    text = _export(binder)
    line = text.split("\r\n")[1]
    assert f"'{dangerous}" in line or f'"\'{dangerous}"' in line
    _import(binder, text, mode="replace")
    assert binder.entries.get().notes == dangerous


def test_safe_cell_leaves_ordinary_text_alone():
    assert collection_csv.safe_cell("Henry Meek") == "Henry Meek"
    assert collection_csv.safe_cell(3) == 3
    assert collection_csv.safe_cell("-") == "'-"


def test_management_commands_round_trip(tmp_path, user, binder, common, chip):
    source = tmp_path / "in.csv"
    source.write_text(f"code,qty\n{common.code},2\n{chip.code},1\n", encoding="utf-8")
    out = io.StringIO()
    call_command("import_collection", user.username, str(source), collection="Binder", stdout=out)
    assert "2 card copies" in out.getvalue()
    target = tmp_path / "out.csv"
    call_command("export_collection", user.username, str(target), collection="Binder")
    call_command("import_collection", user.username, str(target), collection="Again")
    again = Collection.objects.get(owner=user, name="Again")
    assert _snapshot(again) == _snapshot(binder)


def test_import_command_reports_bad_rows(tmp_path, user, binder):
    from django.core.management.base import CommandError

    source = tmp_path / "bad.csv"
    source.write_text("code,qty\nHSD-999,1\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 2"):
        call_command("import_collection", user.username, str(source), collection="Binder")
    assert CollectionEntry.objects.count() == CollectionChip.objects.count() == 0
