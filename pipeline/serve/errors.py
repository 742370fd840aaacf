"""Errors in the OpenAI API's shape: ``{"error": {"message", "type", "code", "param"}}``.

    raise ApiError(400, "messages: required", code="missing_field", param="messages")

Routes raise ``ApiError``; the app turns it (and FastAPI's own validation and HTTP errors) into
that body with the status, so OpenAI clients raise their usual ``BadRequestError``,
``AuthenticationError``, ``NotFoundError``, ``RateLimitError`` ...
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

TYPE_OF_STATUS = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
    404: "not_found_error", 405: "invalid_request_error", 409: "conflict_error",
    413: "invalid_request_error", 415: "invalid_request_error", 422: "invalid_request_error",
    429: "rate_limit_error", 500: "server_error", 503: "server_error", 504: "timeout_error",
}


class ApiError(Exception):
    def __init__(self, status: int, message: str, code: str | None = None,
                 param: str | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.code, self.param = status, message, code, param
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return error_body(self.status, self.message, self.code, self.param)

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


def error_body(status: int, message: str, code: str | None = None,
               param: str | None = None) -> dict[str, Any]:
    kind = TYPE_OF_STATUS.get(status, "invalid_request_error" if status < 500 else "server_error")
    return {"error": {"message": message, "type": kind, "code": code, "param": param}}
