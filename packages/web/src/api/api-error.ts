/** A failed server call: the HTTP status (0 when the server was unreachable) and its message. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/** True for errors the caller may show: the server refused the request itself. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
