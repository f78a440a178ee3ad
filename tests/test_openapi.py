"""The OpenAPI schema and its offline Swagger UI: the schema is valid, says what the API answers
(errors included) and is shaped for generated clients."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openapi_spec_validator import validate

from collecting import csv_format as collection_csv
from collecting.models import Collection, CollectionEntry

pytestmark = pytest.mark.django_db

ERROR_LIST = "#/components/schemas/ErrorList"
UPLOADS = {
    ("post", "/api/v1/collections/{id}/import/"),
    ("post", "/api/v1/collections/{collection_pk}/scans/"),
}
AREAS = {"cards", "decks", "collections", "simulations", "games", "table", "tokens", "bots"}


@pytest.fixture
def schema(client) -> dict:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def operations(schema: dict):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def component(schema: dict, ref: str) -> dict:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def ref_of(prop: dict) -> str:
    """The component a property refers to (drf-spectacular wraps it in allOf when it adds a
    description or readOnly)."""
    return prop["$ref"] if "$ref" in prop else prop["allOf"][0]["$ref"]


def test_schema_lists_the_catalogue_endpoints(schema):
    paths = ("/api/v1/cards/", "/api/v1/cards/{code}/", "/api/v1/sets/", "/api/v1/kicker-chips/")
    assert set(paths) <= set(schema["paths"])


def test_schema_is_valid_openapi(schema):
    validate(schema)  # openapi-spec-validator: raises on the first error


def test_request_bodies_are_json_except_the_uploads_which_are_multipart(schema):
    bodies = {
        (method, path): set(operation["requestBody"]["content"])
        for method, path, operation in operations(schema)
        if "requestBody" in operation
    }
    assert set(bodies) >= UPLOADS
    for key, content_types in bodies.items():
        expected = {"multipart/form-data"} if key in UPLOADS else {"application/json"}
        assert content_types == expected, key


def test_every_error_an_operation_can_answer_is_documented_in_the_one_error_shape(schema):
    for method, path, operation in operations(schema):
        responses = operation["responses"]
        key = f"{method.upper()} {path}"
        parameters = operation.get("parameters", [])
        if any(p["in"] == "path" for p in parameters):
            assert "404" in responses, key
        if "requestBody" in operation or any(p["in"] == "query" for p in parameters):
            assert "400" in responses, key
        if "requestBody" in operation:
            assert "413" in responses, key
        if operation.get("security") and {} not in operation["security"]:
            assert "401" in responses, key
        for status, response in responses.items():
            if status.startswith("4"):
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == ERROR_LIST, (key, status)
    conflicts = {
        ("post", "/api/v1/collections/{id}/adjust/"),
        ("post", "/api/v1/collections/{collection_pk}/entries/"),
        ("post", "/api/v1/collections/{collection_pk}/chips/"),
        ("post", "/api/v1/wishlist/"),
        ("post", "/api/v1/games/{id}/actions/"),
        ("get", "/api/v1/games/{id}/record/"),
    }
    for method, path in conflicts:
        assert "409" in schema["paths"][path][method]["responses"], path
    error = schema["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "detail", "attr"}
    assert {"position", "line", "column"} <= set(error["properties"])


def test_operations_read_well_and_are_tagged_by_area(schema):
    ids = [operation["operationId"] for _, _, operation in operations(schema)]
    assert len(ids) == len(set(ids))
    for operation_id in ids:
        assert re.fullmatch(r"[a-z]+(_[a-z]+)+", operation_id), operation_id
        assert "v1" not in operation_id
    assert {tag for _, _, op in operations(schema) for tag in op["tags"]} == AREAS
    by_id = {op["operationId"]: (method, path) for method, path, op in operations(schema)}
    assert by_id["create_deck"] == ("post", "/api/v1/decks/")
    assert by_id["validate_deck_list"] == ("post", "/api/v1/decks/validate/")
    assert by_id["start_simulation"] == ("post", "/api/v1/simulations/")


def test_object_ids_in_paths_are_integers(schema):
    names = {"id", "collection_pk", "number", "sample_id"}
    seen = set()
    for _, path, operation in operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and parameter["name"] in names:
                seen.add(parameter["name"])
                assert parameter["schema"]["type"] == "integer", path
    assert seen == names


def test_public_reads_need_no_credentials_and_writes_need_a_token_or_a_session(schema):
    public = [
        ("get", "/api/v1/cards/"),
        ("get", "/api/v1/decks/shared/{slug}/"),
        ("get", "/api/v1/collections/{id}/tradelist/"),
        ("get", "/api/v1/simulation-games/"),
        ("post", "/api/v1/decks/validate/"),
        ("post", "/api/v1/tokens/"),
    ]
    for method, path in public:
        assert not schema["paths"][path][method].get("security"), path
    assert schema["paths"]["/api/v1/decks/"]["post"]["security"] == [
        {"tokenAuth": []},
        {"cookieAuth": []},
    ]
    token = schema["components"]["securitySchemes"]["tokenAuth"]
    assert (token["type"], token["in"], token["name"]) == ("apiKey", "header", "Authorization")
    assert "`Authorization: Token <key>`" in token["description"]


def test_limit_and_offset_carry_their_bounds(schema):
    lists = 0
    for _, path, operation in operations(schema):
        params = {p["name"]: p["schema"] for p in operation.get("parameters", [])}
        if "limit" in params:
            lists += 1
            assert (params["limit"]["minimum"], params["limit"]["maximum"]) == (1, 200), path
            assert params["offset"]["minimum"] == 0, path
    assert lists >= 16


def test_adjust_takes_a_card_or_a_chip_and_a_delta_that_is_not_zero(schema):
    body = schema["paths"]["/api/v1/collections/{id}/adjust/"]["post"]["requestBody"]
    one_of = component(schema, body["content"]["application/json"]["schema"]["$ref"])["oneOf"]
    shapes = [component(schema, option["$ref"]) for option in one_of]
    assert [set(shape["required"]) for shape in shapes] == [
        {"card", "delta"},
        {"kicker_chip", "delta"},
    ]
    assert shapes[0]["properties"]["delta"]["not"] == {"enum": [0]}


def test_status_fields_are_enums(schema):
    run = schema["components"]["schemas"]["Run"]["properties"]["status"]
    assert ref_of(run).endswith("/RunStatusEnum")
    statuses = schema["components"]["schemas"]["RunStatusEnum"]["enum"]
    assert statuses == ["queued", "running", "done", "failed", "cancelled"]
    draft = schema["components"]["schemas"]["DraftPodDetail"]["properties"]["status"]
    assert ref_of(draft).endswith("/DraftStatusEnum")


def test_the_results_report_is_typed_down_to_each_win_rate_and_its_interval(schema):
    results = schema["paths"]["/api/v1/simulations/{id}/results/"]["get"]["responses"]["200"]
    report = component(schema, results["content"]["application/json"]["schema"]["$ref"])
    player = component(schema, report["properties"]["players"]["items"]["$ref"])
    win_rate = component(schema, player["properties"]["win_rate"]["$ref"])
    assert {"rate", "low", "high", "n", "k"} <= set(win_rate["properties"])
    card = component(schema, player["properties"]["cards"]["items"]["$ref"])
    assert {"played", "not_played", "delta"} <= set(card["properties"])
    assert {"matchups", "matrix", "what_if", "turns"} <= set(report["properties"])


def test_card_abilities_chip_sides_and_dude_stats_are_typed(schema):
    components = schema["components"]["schemas"]
    abilities = components["Card"]["properties"]["abilities"]
    assert abilities["items"]["$ref"].endswith("/Ability")
    assert components["KickerChip"]["properties"]["sides"]["items"]["$ref"].endswith("/ChipSide")
    dude_stats = ref_of(components["Stats"]["properties"]["dude_stats"])
    assert set(component(schema, dude_stats)["properties"]) == {
        "smarts",
        "skill",
        "luck",
        "kicker_limit",
    }


def test_a_bare_list_is_documented_as_a_bare_list(schema, user_client, user, catalogue):
    completion = schema["paths"]["/api/v1/collections/{id}/completion/"]["get"]
    assert completion["responses"]["200"]["content"]["application/json"]["schema"]["type"] == (
        "array"
    )
    assert "limit" not in {p["name"] for p in completion.get("parameters", [])}
    records = schema["paths"]["/api/v1/simulations/{id}/records/"]["get"]
    assert records["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "array"
    binder = Collection.objects.create(owner=user, name="Binder")
    body = user_client.get(f"/api/v1/collections/{binder.pk}/completion/").json()
    assert isinstance(body, list) and body


def test_a_csv_import_over_the_size_limit_answers_413_as_documented(
    schema, user_client, user, catalogue, monkeypatch
):
    documented = schema["paths"]["/api/v1/collections/{id}/import/"]["post"]["responses"]
    assert documented["413"]["content"]["application/json"]["schema"]["$ref"] == ERROR_LIST
    monkeypatch.setattr(collection_csv, "MAX_BYTES", 100)
    binder = Collection.objects.create(owner=user, name="Binder")
    upload = SimpleUploadedFile("big.csv", b"code,qty\n" + b"HSD-001,1\n" * 20)
    response = user_client.post(
        f"/api/v1/collections/{binder.pk}/import/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 413
    assert response.json()["errors"][0]["code"] == "file_too_large"
    assert not CollectionEntry.objects.exists()


def test_an_empty_import_file_answers_the_documented_error_shape(schema, user_client, user):
    documented = schema["paths"]["/api/v1/collections/{id}/import/"]["post"]["responses"]["400"]
    assert documented["content"]["application/json"]["schema"]["$ref"] == ERROR_LIST
    error_list = component(schema, ERROR_LIST)
    item = component(schema, error_list["properties"]["errors"]["items"]["$ref"])
    binder = Collection.objects.create(owner=user, name="Binder")
    empty = SimpleUploadedFile("empty.csv", b"")
    response = user_client.post(
        f"/api/v1/collections/{binder.pk}/import/", {"file": empty}, format="multipart"
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "empty"  # a form error: no line or column, and none required
    assert set(item["required"]) <= set(error)


def test_swagger_ui_is_served_without_any_cdn(client):
    html = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in html
    for cdn in ("cdn.jsdelivr", "unpkg.com", "cdnjs", "googleapis"):
        assert cdn not in html
    assert "/static/drf_spectacular_sidecar/" in html


@pytest.mark.parametrize(
    ("path", "body", "attr"),
    [
        ("/api/v1/collections/", {"name": "Box", "trade_list_public": 0}, "trade_list_public"),
        ("/api/v1/collections/", {"name": 7}, "name"),
        ("/api/v1/decks/", {"name": "Posse", "cards": [{"code": "HSD-001", "qty": "2"}]}, None),
        ("/api/v1/simulations/", {"game": "quickdraw", "games": "4", "players": []}, "games"),
        ("/api/v1/wishlist/", {"card": "HSD-001", "kicker_chip": "", "quantity": 1}, None),
    ],
)
def test_a_json_value_of_another_type_than_the_schema_says_is_refused_not_coerced(
    user_client, catalogue, path, body, attr
):
    from decks.models import Deck
    from simulator.models import SimulationRun

    response = user_client.post(path, body, format="json")
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    assert attr is None or attr in {e["attr"] for e in errors}
    assert not Collection.objects.exists()
    assert not Deck.objects.exists()
    assert not SimulationRun.objects.exists()


@pytest.mark.parametrize(
    "query",
    [
        "/api/v1/cards/?smarts__lte=0.5",
        "/api/v1/kicker-chips/?value=1.5",
        "/api/v1/decks/?is_public=null",
        "/api/v1/cards/?is_copy=maybe",
        "/api/v1/cards/?skill__lte=",
        "/api/v1/kicker-chips/?color=",
        "/api/v1/pools/?kind=",
        "/api/v1/decks/?pool=",
    ],
)
def test_a_filter_takes_only_the_whole_numbers_booleans_and_choices_the_schema_says(
    user_client, query
):
    response = user_client.get(query)
    assert response.status_code == 400
    assert response.json()["errors"][0]["attr"] == query.split("?")[1].split("=")[0]


def test_filters_of_the_right_type_still_filter(user_client, catalogue):
    body = user_client.get("/api/v1/cards/?smarts__gte=9&is_copy=false&limit=200").json()
    assert body["results"] and all(card["smarts"] >= 9 for card in body["results"])


def test_the_entry_filters_and_flags_refuse_what_their_schema_refuses(user_client, user):
    binder = Collection.objects.create(owner=user, name="Binder")
    base = f"/api/v1/collections/{binder.pk}"
    assert user_client.get(f"{base}/entries/?condition=pristine").status_code == 400
    assert user_client.get(f"{base}/entries/?condition=").status_code == 400
    assert user_client.get(f"{base}/entries/?condition=mint").status_code == 200
    assert user_client.get(f"{base}/missing/?playset=null").status_code == 400
    assert user_client.get(f"{base}/missing/?playset=").status_code == 400
    assert user_client.get(f"{base}/missing/?playset=true").status_code == 200


def test_a_deck_s_collection_parameter_given_empty_is_refused(user_client, user, catalogue):
    from decks.services import deck_create

    deck = deck_create(owner=user, name="Posse")
    assert user_client.get(f"/api/v1/decks/{deck.pk}/missing/?collection=").status_code == 400
    assert user_client.post(f"/api/v1/decks/{deck.pk}/wishlist/?collection=").status_code == 400
    assert user_client.get(f"/api/v1/decks/{deck.pk}/missing/").status_code == 200


def test_setting_a_quantity_to_zero_answers_the_documented_204(schema, user_client, user):
    from cards.models import Card
    from collecting import services as collection_services

    patch = schema["paths"]["/api/v1/collections/{collection_pk}/entries/{id}/"]["patch"]
    assert "204" in patch["responses"]
    binder = Collection.objects.create(owner=user, name="Binder")
    card = Card.objects.get(code="HSD-001")
    collection_services.entry_adjust(collection=binder, card=card, delta=2)
    entry = binder.entries.get()
    url = f"/api/v1/collections/{binder.pk}/entries/{entry.pk}/"
    assert user_client.patch(url, {"quantity": 0}, format="json").status_code == 204
    assert not binder.entries.exists()


def test_deck_versions_document_no_filters_they_do_not_apply(schema):
    versions = schema["paths"]["/api/v1/decks/{id}/versions/"]["get"]
    assert {p["name"] for p in versions["parameters"]} == {"id", "limit", "offset"}


@pytest.mark.parametrize("path", ["/api/v1/cards/HSD-NOPE/", "/api/v1/decks/abc/"])
def test_a_path_value_outside_its_pattern_answers_the_documented_json_404(schema, client, path):
    documented = schema["paths"]["/api/v1/cards/{code}/"]["get"]["responses"]["404"]
    assert documented["content"]["application/json"]["schema"]["$ref"] == ERROR_LIST
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["code"] == "not_found"
