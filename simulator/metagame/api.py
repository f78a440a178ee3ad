"""The metagame lab API (#28): `/api/v1/fields/` are your fields (decks with their shares of a
format's players), anyone's public ones to read and copy; `POST /api/v1/fields/{id}/runs/`
starts a field run (202 + Location), `GET /api/v1/field-runs/{id}/` is its progress and, once
done, which deck to bring; `.../cancel/` stops it, `.../export/` downloads its figures.

Owner-scoped: another user's private field, and another user's field run, is a 404; someone
else's public field is read and copied, never changed or run (404, as decks are)."""

from __future__ import annotations

import json

from django.http import HttpResponse, StreamingHttpResponse
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from cards.filtersets import true_or_false
from collecting import csv_format
from config.api import DomainError
from config.schema import ERRORS, errors
from simulator.games.problems import RunRefused
from simulator.metagame import selectors
from simulator.metagame import serializers as s
from simulator.metagame import services as metagame
from simulator.metagame.models import Field, FieldRun
from simulator.runs.api import IDEMPOTENCY, LOCATION

PUBLIC = OpenApiParameter(
    "public",
    OpenApiTypes.BOOL,
    description="Also list everyone's public fields (yours are always listed).",
)
EXPORT_AS = OpenApiParameter(
    "as",
    OpenApiTypes.STR,
    enum=["csv", "json"],
    default="csv",
    description="csv: a row per deck then a row per pair (formula-safe); json: the same figures.",
)


def _public(request) -> bool:
    """`?public=`: true or false (or 1/0), else a 400 naming it."""
    return bool(true_or_false(request, "public"))


class FieldViewSet(viewsets.GenericViewSet):
    """Your fields, and anyone's public ones to read and copy."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = s.FieldSerializer
    queryset = Field.objects.none()  # the schema's model; the selectors scope to the user
    lookup_value_regex = r"\d+"
    filter_backends: list = []  # no filters but `public`, which widens the list

    def get_queryset(self):
        return selectors.field_list(user=self.request.user, public=_public(self.request))

    def _mine(self) -> Field:
        return selectors.field_get(owner=self.request.user, pk=self.kwargs["pk"])

    def _answer(self, field: Field, code: int = status.HTTP_200_OK) -> Response:
        return Response(s.FieldSerializer(field, context={"request": self.request}).data, code)

    @extend_schema(parameters=[PUBLIC], responses={200: s.FieldSerializer(many=True)})
    def list(self, request):
        """Your fields, newest change first; with `?public=true`, everyone's public ones too."""
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(request=s.FieldWriteSerializer, responses={201: s.FieldSerializer, 400: ERRORS})
    def create(self, request):
        """Save a field: 2 to 16 decks, each legal for the format and yours, public or a
        starter, with its share of the players; heads-up, or tables of 3 to 8 seats where the
        game seats that many. Every problem is answered at once (`attr`
        names it, e.g. `entries.3.share`); nothing is written."""
        data = s.FieldWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        field = metagame.field_create(
            owner=request.user, name=v["name"], entries=[dict(e) for e in v["entries"]],
            budget=v["budget"], format=v["format"], bot=v["bot"], confidence=v["confidence"],
            target=v["target"], public=v["public"], table_size=v["table_size"],
        )  # fmt: skip
        return self._answer(field, status.HTTP_201_CREATED)

    @extend_schema(responses={200: s.FieldSerializer})
    def retrieve(self, request, pk=None):
        """A field of yours, or someone's public one."""
        return self._answer(selectors.field_visible(user=request.user, pk=pk))

    def _write(self, request, partial: bool) -> Response:
        field = self._mine()
        data = s.FieldWriteSerializer(data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        if "entries" in v:
            v["entries"] = [dict(e) for e in v["entries"]]
        return self._answer(metagame.field_update(field=field, **v))

    @extend_schema(request=s.FieldWriteSerializer, responses={200: s.FieldSerializer, 400: ERRORS})
    def update(self, request, pk=None):
        """Replace a field of yours (its runs keep the field as it was when each started)."""
        return self._write(request, partial=False)

    @extend_schema(request=s.FieldWriteSerializer, responses={200: s.FieldSerializer, 400: ERRORS})
    def partial_update(self, request, pk=None):
        """Change some of a field of yours, checked as a whole again."""
        return self._write(request, partial=True)

    @extend_schema(responses={204: None})
    def destroy(self, request, pk=None):
        """Delete a field of yours and its runs (an active one is cancelled)."""
        metagame.field_delete(field=self._mine())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=s.FieldCopySerializer, responses={201: s.FieldSerializer, 400: ERRORS})
    @action(detail=True, methods=["post"])
    def copy(self, request, pk=None):
        """A private copy of a field (someone's public one, or yours), yours to change and
        run. A deck of theirs that is private to them is refused by name."""
        field = selectors.field_visible(user=request.user, pk=pk)
        data = s.FieldCopySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        name = data.validated_data.get("name")
        copied = metagame.field_copy(field=field, owner=request.user, name=name)
        return self._answer(copied, status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"],
        responses={200: s.FieldRunSerializer(many=True)},
        description="Your runs of the field, newest first.",
    )
    @extend_schema(
        methods=["POST"],
        request=s.FieldRunStartSerializer,
        parameters=[IDEMPOTENCY, LOCATION],
        responses={
            202: OpenApiResponse(s.FieldRunSerializer, description="Accepted: the run, queued."),
            400: ERRORS,
        },
        description="Start a run of a field of yours: its decks are checked again. Answers "
        "202 Accepted with the run's URL in `Location`; poll it until `status` is done, failed "
        "or cancelled.",
    )
    @action(detail=True, methods=["get", "post"])
    def runs(self, request, pk=None):
        if request.method == "GET":
            field = selectors.field_visible(user=request.user, pk=pk)
            runs = selectors.field_run_list(owner=request.user, field=field)
            page = self.paginate_queryset(runs)
            body = s.FieldRunSerializer(page, many=True, context={"request": request}).data
            return self.get_paginated_response(body)
        field = self._mine()
        data = s.FieldRunStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        field_run, _created = metagame.field_run_create(
            field=field, seed=data.validated_data.get("seed"),
            idempotency_key=request.headers.get("Idempotency-Key") or None,
            reuse=data.validated_data["reuse"],
        )  # fmt: skip
        body = s.FieldRunSerializer(field_run, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class FieldRunViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Your field runs."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = s.FieldRunSerializer
    queryset = FieldRun.objects.none()  # the schema's model; get_object scopes to the user
    lookup_value_regex = r"\d+"
    filter_backends: list = []

    def get_object(self):
        return selectors.field_run_get(owner=self.request.user, pk=self.kwargs["pk"])

    @extend_schema(responses={200: s.FieldRunSerializer})
    def retrieve(self, request, *args, **kwargs):
        """A field run's progress (games spent of the budget, its round, each pair's games so
        far) and, once done, its answer: the tier list, the matrix, the equilibrium."""
        return Response(self.get_serializer(self.get_object()).data)

    @extend_schema(request=None, responses={200: s.FieldRunSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """Cancel the field run and its runs (a finished one is left as it is)."""
        field_run = metagame.field_run_cancel(field_run=self.get_object())
        return Response(self.get_serializer(field_run).data)

    @extend_schema(
        parameters=[EXPORT_AS],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): s.FieldRunExportSerializer,
            400: ERRORS,
            409: errors("`not_finished`: the run is not done: it has no figures to export yet."),
        },
    )
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        """A finished run's figures as a download: the matrix (each pair's estimate, interval
        and games) and each deck's figures against the field. `?as=` rather than `?format=`,
        which DRF keeps for choosing a renderer (as the decks' export does)."""
        field_run = self.get_object()
        kind = request.query_params.get("as", "csv")
        if kind not in ("csv", "json"):
            raise DomainError(f"Export as csv or json, not {kind!r}.", code="invalid_choice",
                              attr="as")  # fmt: skip
        if field_run.status != FieldRun.Status.DONE:
            raise RunRefused(
                f"This field run is {field_run.status}: only a finished run has figures to "
                "export.", code="not_finished", status=409,
            )  # fmt: skip
        return export_response(field_run, kind)


def export_response(field_run: FieldRun, kind: str) -> HttpResponse | StreamingHttpResponse:
    """A finished field run's figures as a download: JSON, or formula-safe CSV streamed by the
    collections' CSV writer (a cell that a spreadsheet would run is quoted)."""
    name = slugify(field_run.field.name) or f"field-run-{field_run.pk}"
    response: HttpResponse | StreamingHttpResponse
    if kind == "json":
        body = json.dumps(selectors.field_run_export(field_run), indent=2)
        response = HttpResponse(body, content_type="application/json")
    else:
        response = StreamingHttpResponse(
            csv_format.write(
                selectors.field_run_csv_rows(field_run), header=selectors.csv_header(field_run)
            ),
            content_type="text/csv; charset=utf-8",
        )
    response["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
