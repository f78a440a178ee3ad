"""The OpenAPI schema's plumbing, in one place, so that a client generated from it works as it is.

- **One error model**: `ErrorList` (`{"errors": [Error]}`) is documented on every operation for
  each error status it can answer: 400 where there is a body or a query parameter, 401 where
  credentials are read, 403 where a session must send its CSRF token, 404 on paths with an
  object in them, 413 where there is a body, 429 where a throttle applies. 409 and an upload's
  own 413 are declared by the views that answer them (`errors()`), as is a 400 on an operation
  with neither body nor parameters.
- **Tags by area** and **operation ids that read well** (`create_deck`, not
  `v1_decks_create`): a generated client is a module per area with a function per operation.
  An operation missing from `OPERATIONS` is a schema warning, which `make lint` fails on.
- **Integer ids**: a path parameter routed by a digits-only pattern is an integer.
- **The token scheme** says its `Token` prefix and where a first token comes from; operations
  that serve anonymous requests need no credentials (`security` left out).

Request bodies are JSON only (`REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]`); the upload
endpoints alone take multipart. `StrictJSON` makes the input serializers take each JSON value
only in the type the schema states, so that what the schema calls invalid is refused
(schemathesis checks both ways over every operation: tests/test_api_fuzz.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from drf_spectacular import openapi
from drf_spectacular.authentication import SessionScheme, TokenScheme
from drf_spectacular.drainage import warn
from drf_spectacular.utils import OpenApiResponse
from rest_framework import permissions, serializers
from rest_framework.authentication import SessionAuthentication


class StrictJSON:
    """A serializer mixin: each value of a JSON body must have the type the schema gives it.

    DRF's fields coerce: `"3"` passes for a number, `0` for a string, `0` and `"yes"` for a
    boolean. The schema says integer, string and boolean, and so does every client generated
    from it; schemathesis sends the other types (tests/test_api_fuzz.py) and rightly expects a
    400. Form and multipart data (a QueryDict, every value a string) are left to the fields.
    """

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and not isinstance(data, QueryDict):
            errors = {
                field.field_name: [problem]
                for field in self._writable_fields
                if field.field_name in data
                and (problem := json_type_problem(field, data[field.field_name]))
            }
            if errors:
                raise serializers.ValidationError(errors, code="invalid")
        return super().to_internal_value(data)


def json_type_problem(field: serializers.Field, value: Any) -> str | None:
    """Why `value` (from JSON) is not of `field`'s schema type; None when it is (or when the
    field checks its own type, as nested serializers and custom fields do)."""
    if value is None:
        return None  # the field's allow_null decides
    if isinstance(field, serializers.ListField):
        items = value if isinstance(value, list) else []
        return next(filter(None, (json_type_problem(field.child, item) for item in items)), None)
    if isinstance(field, serializers.DictField):
        items = value.values() if isinstance(value, dict) else []
        return next(filter(None, (json_type_problem(field.child, item) for item in items)), None)
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be true or false."
    if isinstance(field, serializers.IntegerField):
        whole = isinstance(value, int) and not isinstance(value, bool)
        return None if whole else "A whole number is required."
    if isinstance(field, serializers.FloatField | serializers.DecimalField):
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return None if number else "A number is required."
    if isinstance(field, serializers.SlugRelatedField) and value == "":
        return "May not be blank."  # DRF reads "" as null, for HTML forms
    if isinstance(
        field,
        serializers.CharField
        | serializers.ChoiceField
        | serializers.SlugRelatedField
        | serializers.DateField,
    ):
        return None if isinstance(value, str) else "Must be a string."
    return None


class ErrorSerializer(serializers.Serializer):
    """One problem. Some errors add keys: `position` (search syntax), `line` and `column`
    (imports), `card`, `kicker_chip`, `qty` and `limit` (deck rules), `owned` (wishlist)."""

    code = serializers.CharField(help_text="Stable and machine-readable, e.g. `invalid_query`.")
    detail = serializers.CharField(help_text="For people.")
    attr = serializers.CharField(
        allow_null=True,
        help_text="The parameter or field concerned, dotted for nested ones (`cards.3.qty`).",
    )
    position = serializers.IntegerField(
        required=False, help_text="Where in `q` a search syntax error is."
    )
    line = serializers.IntegerField(required=False, help_text="The line of an imported file.")
    column = serializers.CharField(
        required=False, allow_null=True, help_text="The column of an imported CSV file."
    )
    card = serializers.CharField(required=False, help_text="The card a deck rule concerns.")
    kicker_chip = serializers.CharField(
        required=False, help_text="The kicker chip a deck rule concerns."
    )
    qty = serializers.IntegerField(required=False, help_text="The copies a deck rule counted.")
    limit = serializers.IntegerField(required=False, help_text="The copies a deck rule allows.")
    owned = serializers.IntegerField(required=False, help_text="Copies you already own.")


class ErrorListSerializer(serializers.Serializer):
    """Every error answer: `{"errors": [...]}`, at least one."""

    errors = ErrorSerializer(many=True, min_length=1)


def errors(description: str) -> OpenApiResponse:
    """An error answer in the one shape, for `extend_schema(responses={409: errors(...)})`."""
    return OpenApiResponse(ErrorListSerializer, description=description)


ERRORS = errors("Every problem with the input.")

ERROR_DESCRIPTIONS = {
    "400": "Bad input: every problem, each naming the parameter or field (`attr`).",
    "401": "No credentials, or bad ones: send `Authorization: Token <key>` or a session.",
    "401-optional": "A wrong or revoked token (this operation needs none: leave it out).",
    "403": "A session without its CSRF token, or not allowed.",
    "404": "No such object, or not yours (the two look the same).",
    "413": "The body is over the size limit (`too_large`).",
    "429": "Too many requests: try again after `Retry-After` seconds.",
}

# The area of each first path segment under /api/v1/: a generated client's modules.
TAGS = {
    "cards": "cards",
    "sets": "cards",
    "kicker-chips": "cards",
    "collections": "collections",
    "wishlist": "collections",
    "trade-matches": "collections",
    "practice-boosters": "collections",
    "decks": "decks",
    "pools": "decks",
    "drafts": "decks",
    "simulations": "simulations",
    "doctor": "simulations",
    "fields": "simulations",
    "field-runs": "simulations",
    "simulation-games": "games",
    "bots": "bots",
    "games": "table",
    "tokens": "tokens",
}

# (method, path) -> operation id: what a generated client's functions are called.
OPERATIONS = {
    ("GET", "/api/v1/cards/"): "list_cards",
    ("GET", "/api/v1/cards/{code}/"): "get_card",
    ("GET", "/api/v1/sets/"): "list_sets",
    ("GET", "/api/v1/sets/{code}/"): "get_set",
    ("GET", "/api/v1/kicker-chips/"): "list_kicker_chips",
    ("GET", "/api/v1/kicker-chips/{code}/"): "get_kicker_chip",
    ("GET", "/api/v1/collections/"): "list_collections",
    ("POST", "/api/v1/collections/"): "create_collection",
    ("GET", "/api/v1/collections/{id}/"): "get_collection",
    ("PUT", "/api/v1/collections/{id}/"): "replace_collection",
    ("PATCH", "/api/v1/collections/{id}/"): "update_collection",
    ("DELETE", "/api/v1/collections/{id}/"): "delete_collection",
    ("POST", "/api/v1/collections/{id}/adjust/"): "adjust_collection",
    ("GET", "/api/v1/collections/{id}/completion/"): "get_collection_completion",
    ("GET", "/api/v1/collections/{id}/export/"): "export_collection",
    ("POST", "/api/v1/collections/{id}/import/"): "import_collection",
    ("GET", "/api/v1/collections/{id}/missing/"): "list_collection_missing_cards",
    ("GET", "/api/v1/collections/{id}/openings/"): "list_collection_openings",
    ("POST", "/api/v1/collections/{id}/openings/"): "record_collection_opening",
    ("GET", "/api/v1/collections/{id}/tradelist/"): "get_tradelist",
    ("POST", "/api/v1/collections/{id}/tradelist/"): "set_tradelist_keep",
    ("GET", "/api/v1/collections/{collection_pk}/entries/"): "list_collection_entries",
    ("POST", "/api/v1/collections/{collection_pk}/entries/"): "add_collection_entry",
    ("GET", "/api/v1/collections/{collection_pk}/entries/{id}/"): "get_collection_entry",
    ("PATCH", "/api/v1/collections/{collection_pk}/entries/{id}/"): "update_collection_entry",
    ("DELETE", "/api/v1/collections/{collection_pk}/entries/{id}/"): "delete_collection_entry",
    ("GET", "/api/v1/collections/{collection_pk}/chips/"): "list_collection_chips",
    ("POST", "/api/v1/collections/{collection_pk}/chips/"): "add_collection_chip",
    ("GET", "/api/v1/collections/{collection_pk}/chips/{id}/"): "get_collection_chip",
    ("PATCH", "/api/v1/collections/{collection_pk}/chips/{id}/"): "update_collection_chip",
    ("DELETE", "/api/v1/collections/{collection_pk}/chips/{id}/"): "delete_collection_chip",
    ("GET", "/api/v1/collections/{collection_pk}/scans/"): "list_card_scans",
    ("POST", "/api/v1/collections/{collection_pk}/scans/"): "upload_card_scan",
    ("GET", "/api/v1/collections/{collection_pk}/scans/{id}/"): "get_card_scan",
    ("DELETE", "/api/v1/collections/{collection_pk}/scans/{id}/"): "delete_card_scan",
    ("GET", "/api/v1/wishlist/"): "list_wishlist",
    ("POST", "/api/v1/wishlist/"): "add_wish",
    ("GET", "/api/v1/wishlist/{id}/"): "get_wish",
    ("PATCH", "/api/v1/wishlist/{id}/"): "update_wish",
    ("DELETE", "/api/v1/wishlist/{id}/"): "delete_wish",
    ("GET", "/api/v1/trade-matches/"): "match_trades",
    ("GET", "/api/v1/practice-boosters/"): "open_practice_booster",
    ("GET", "/api/v1/decks/"): "list_decks",
    ("POST", "/api/v1/decks/"): "create_deck",
    ("GET", "/api/v1/decks/{id}/"): "get_deck",
    ("PUT", "/api/v1/decks/{id}/"): "replace_deck",
    ("PATCH", "/api/v1/decks/{id}/"): "update_deck",
    ("DELETE", "/api/v1/decks/{id}/"): "delete_deck",
    ("GET", "/api/v1/decks/{id}/compare/"): "compare_deck_versions",
    ("GET", "/api/v1/decks/{id}/export/"): "export_deck",
    ("GET", "/api/v1/decks/{id}/missing/"): "list_deck_missing",
    ("GET", "/api/v1/decks/{id}/stats/"): "get_deck_stats",
    ("GET", "/api/v1/decks/{id}/validate/"): "validate_deck",
    ("GET", "/api/v1/decks/{id}/versions/"): "list_deck_versions",
    ("POST", "/api/v1/decks/{id}/versions/"): "save_deck_version",
    ("GET", "/api/v1/decks/{id}/versions/{number}/"): "get_deck_version",
    ("POST", "/api/v1/decks/{id}/wishlist/"): "wish_deck_missing",
    ("POST", "/api/v1/decks/import/"): "import_deck",
    ("GET", "/api/v1/decks/shared/{slug}/"): "get_shared_deck",
    ("GET", "/api/v1/decks/public/"): "list_public_decks",
    ("POST", "/api/v1/decks/validate/"): "validate_deck_list",
    ("GET", "/api/v1/pools/"): "list_pools",
    ("POST", "/api/v1/pools/"): "open_pool",
    ("GET", "/api/v1/pools/{id}/"): "get_pool",
    ("POST", "/api/v1/pools/{id}/deck/"): "build_pool_deck",
    ("GET", "/api/v1/drafts/"): "list_drafts",
    ("POST", "/api/v1/drafts/"): "create_draft",
    ("GET", "/api/v1/drafts/{id}/"): "get_draft",
    ("POST", "/api/v1/drafts/{id}/join/"): "join_draft",
    ("POST", "/api/v1/drafts/{id}/start/"): "start_draft",
    ("POST", "/api/v1/drafts/{id}/pick/"): "pick_draft_card",
    ("POST", "/api/v1/drafts/{id}/simulate/"): "simulate_draft",
    ("GET", "/api/v1/simulations/"): "list_simulations",
    ("POST", "/api/v1/simulations/"): "start_simulation",
    ("GET", "/api/v1/simulations/{id}/"): "get_simulation",
    ("POST", "/api/v1/simulations/{id}/cancel/"): "cancel_simulation",
    ("POST", "/api/v1/simulations/{id}/check/"): "check_simulation",
    ("GET", "/api/v1/simulations/{id}/results/"): "get_simulation_results",
    ("GET", "/api/v1/simulations/{id}/records/"): "list_game_records",
    ("GET", "/api/v1/simulations/{id}/records/{sample_id}/"): "get_game_record",
    ("GET", "/api/v1/simulation-games/"): "list_games",
    ("GET", "/api/v1/doctor/"): "list_doctor_runs",
    ("POST", "/api/v1/doctor/"): "start_doctor_run",
    ("GET", "/api/v1/doctor/{id}/"): "get_doctor_run",
    ("POST", "/api/v1/doctor/{id}/cancel/"): "cancel_doctor_run",
    ("POST", "/api/v1/doctor/{id}/apply/"): "apply_doctor_suggestion",
    ("POST", "/api/v1/doctor/{id}/check/"): "check_doctor_swap",
    ("GET", "/api/v1/fields/"): "list_fields",
    ("POST", "/api/v1/fields/"): "create_field",
    ("GET", "/api/v1/fields/{id}/"): "get_field",
    ("PUT", "/api/v1/fields/{id}/"): "replace_field",
    ("PATCH", "/api/v1/fields/{id}/"): "update_field",
    ("DELETE", "/api/v1/fields/{id}/"): "delete_field",
    ("POST", "/api/v1/fields/{id}/copy/"): "copy_field",
    ("GET", "/api/v1/fields/{id}/runs/"): "list_field_runs",
    ("POST", "/api/v1/fields/{id}/runs/"): "start_field_run",
    ("GET", "/api/v1/field-runs/{id}/"): "get_field_run",
    ("POST", "/api/v1/field-runs/{id}/cancel/"): "cancel_field_run",
    ("GET", "/api/v1/field-runs/{id}/export/"): "export_field_run",
    ("GET", "/api/v1/bots/ladder/"): "list_bot_ladders",
    ("GET", "/api/v1/bots/ladder/{id}/"): "get_bot_ladder",
    ("GET", "/api/v1/games/"): "list_table_games",
    ("POST", "/api/v1/games/"): "start_table_game",
    ("GET", "/api/v1/games/{id}/"): "get_table_game",
    ("POST", "/api/v1/games/{id}/actions/"): "act_in_table_game",
    ("GET", "/api/v1/games/{id}/record/"): "get_table_game_record",
    ("GET", "/api/v1/games/lobby/"): "list_lobby_tables",
    ("GET", "/api/v1/games/history/"): "list_games_against_people",
    ("GET", "/api/v1/games/{id}/version/"): "get_table_version",
    ("POST", "/api/v1/games/{id}/join/"): "join_table",
    ("POST", "/api/v1/games/{id}/start/"): "start_table",
    ("POST", "/api/v1/games/{id}/leave/"): "leave_table",
    ("POST", "/api/v1/games/{id}/resign/"): "resign_table_seat",
    ("POST", "/api/v1/games/{id}/end/"): "end_table",
    ("POST", "/api/v1/games/{id}/take-back/"): "take_back_table_seat",
    ("POST", "/api/v1/games/{id}/invite/"): "invite_to_table",
    ("POST", "/api/v1/games/{id}/rematch/"): "rematch_table",
    ("GET", "/api/v1/games/{id}/talk/"): "list_table_talk",
    ("POST", "/api/v1/games/{id}/talk/"): "say_at_table",
    ("POST", "/api/v1/games/{id}/talk/hide/"): "hide_table_talk_line",
    ("POST", "/api/v1/games/{id}/talk/remove/"): "remove_table_talk_line",
    ("POST", "/api/v1/tokens/"): "create_token",
}

# Path patterns that route digits only (lookup_value_regex, nested prefixes, action paths).
DIGITS = {r"^\d+$", "^[0-9]+$"}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema with Drifter's tags, ids, ids as integers and errors."""

    def get_tags(self) -> list[str]:
        # The sampled games of a run are game records: with the games, not the run's figures.
        if "/records/" in self.path:
            return ["games"]
        segment = self.path.removeprefix("/api/v1/").split("/", 1)[0]
        return [TAGS.get(segment, segment)]

    def get_operation_id(self) -> str:
        operation_id = OPERATIONS.get((self.method, self.path))
        if operation_id is None:
            operation_id = super().get_operation_id()
            warn(f"{self.method} {self.path} has no readable operation id in config/schema.py.")
        return operation_id

    def _resolve_path_parameters(self, variables: list[str]) -> list[dict[str, Any]]:
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            if parameter["schema"].get("pattern") in DIGITS:
                parameter["schema"] = {"type": "integer", "minimum": 0}
        return parameters

    def _get_pagination_parameters(self) -> list[dict[str, Any]]:
        """`limit` and `offset` with the bounds the paginator enforces (outside them: 400)."""
        parameters = super()._get_pagination_parameters()
        paginator = self._get_paginator()
        for parameter in parameters:
            schema = parameter["schema"]
            if parameter["name"] == paginator.limit_query_param:
                schema.update(
                    minimum=1, maximum=paginator.max_limit, default=paginator.default_limit
                )
            elif parameter["name"] == paginator.offset_query_param:
                schema["minimum"] = 0
                if getattr(paginator, "max_offset", None) is not None:
                    schema["maximum"] = paginator.max_offset
        return parameters

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is not None:
            self._add_error_responses(operation)
        return operation

    def _add_error_responses(self, operation: dict[str, Any]) -> None:
        """Each error status the operation can answer, in the one error shape, unless the view
        documented it already."""
        ref = self.resolve_serializer(ErrorListSerializer, "response").ref
        parameters = operation.get("parameters", [])
        codes = []
        if "requestBody" in operation or any(p["in"] == "query" for p in parameters):
            codes.append("400")
        authenticators = self.view.get_authenticators()
        if authenticators:
            codes.append("401" if self._needs_credentials() else "401-optional")
        if self.method not in permissions.SAFE_METHODS and any(
            isinstance(a, SessionAuthentication) for a in authenticators
        ):
            codes.append("403")
        if any(p["in"] == "path" for p in parameters):
            codes.append("404")
        if "requestBody" in operation:
            codes.append("413")
        if self.view.get_throttles():
            codes.append("429")
        responses = operation["responses"]
        for code in codes:
            status = code.split("-")[0]
            if status in responses:
                continue
            responses[status] = {
                "content": {"application/json": {"schema": ref}},
                "description": ERROR_DESCRIPTIONS[code],
            }
            if status == "429":
                responses[status]["headers"] = {
                    "Retry-After": {
                        "schema": {"type": "integer"},
                        "description": "Seconds to wait before trying again.",
                    }
                }
        operation["responses"] = dict(sorted(responses.items()))

    def get_auth(self) -> list[dict[str, list]]:
        """The credentials an operation needs: none where anonymous requests are served (a token
        is still read there, and a wrong one is a 401). drf-spectacular lists the schemes with an
        anonymous `{}` for those, which generated clients (openapi-python-client) read as "needs a
        token": a public read would not take a plain client."""
        auths = super().get_auth()
        return [] if {} in auths else auths

    def _needs_credentials(self) -> bool:
        """Whether an anonymous request is refused (as drf-spectacular reads the permissions
        when it adds the anonymous `{}` to `security`)."""
        perms = [type(p) for p in self.view.get_permissions()]
        if permissions.AllowAny in perms:
            return False
        return not (
            permissions.IsAuthenticatedOrReadOnly in perms
            and self.method in permissions.SAFE_METHODS
        )


class DrifterTokenScheme(TokenScheme):
    """DRF's token header with its prefix spelled out, and where a first token comes from.

    OpenAPI 3.0 cannot say "apiKey with a prefix" other than in words (an `http` scheme other
    than basic or bearer is not sent by Swagger UI), so the words are exact.
    """

    priority = 1

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "The header is `Authorization: Token <key>`: the prefix is `Token`, not "
                '`Bearer` (a generated client takes it as `prefix="Token"`). Get a key with '
                "`POST /api/v1/tokens/` and your username and password, or on "
                "/accounts/tokens/."
            ),
        }


class DrifterSessionScheme(SessionScheme):
    """The browser session, which must send its CSRF token on writes."""

    priority = 1

    def get_security_definition(self, auto_schema):
        return {
            **super().get_security_definition(auto_schema),
            "description": "The site's login session; writes also send the `X-CSRFToken` header.",
        }
