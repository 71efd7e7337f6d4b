export { ApiError, isApiError } from "./api-error.ts";
export {
  type ApiNavigation,
  type ApiRequestOptions,
  apiFetch,
  apiGet,
  apiPost,
  configureApiClient,
} from "./client.ts";
