"""An import-linter contract that says what a package may import, not what it may not.

import-linter's own contracts forbid (`forbidden`), order (`layers`) or guard (`protected`);
none lists what a package is allowed to use, so a module added beside the forbidden ones slips
through (the engine's old "forbidden" list missed four of the simulator's modules). This one
does: every module directly imported by the `source_modules` must be one of them, the standard
library, a module in `allowed_modules`, or an external package in `allowed_external` ("*":
any external package). `make lint` registers it in pyproject.toml (`contract_types`).
"""

from __future__ import annotations

import sys

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


def _within(module: str, packages: set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


class AllowedContract(Contract):
    type_name = "allowed"

    source_modules = fields.ListField(subfield=fields.StringField())
    allowed_modules = fields.ListField(subfield=fields.StringField(), required=False)
    allowed_external = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        sources = set(self.source_modules)  # type: ignore[call-overload]
        allowed = sources | set(self.allowed_modules or [])  # type: ignore[call-overload]
        external = set(self.allowed_external or [])  # type: ignore[call-overload]
        # External packages are squashed to their top name; the project's modules have dots.
        first_party = {m.split(".")[0] for m in graph.modules if "." in m}
        broken = []
        for importer in sorted(m for m in graph.modules if _within(m, sources)):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                top = imported.split(".")[0]
                if _within(imported, allowed) or top in sys.stdlib_module_names:
                    continue
                if top not in first_party and ("*" in external or top in external):
                    continue
                details = graph.get_import_details(importer=importer, imported=imported)
                lines = sorted({d["line_number"] for d in details})
                broken.append({"importer": importer, "imported": imported, "lines": lines})
        return ContractCheck(kept=not broken, metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for b in check.metadata["broken"]:
            where = ", ".join(f"l.{n}" for n in b["lines"])
            output.print_error(f"{b['importer']} may not import {b['imported']} ({where})")
        output.new_line()
