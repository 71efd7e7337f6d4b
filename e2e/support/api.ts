import { type APIRequestContext, expect, request as playwrightRequest } from "@playwright/test";

/** Someone signed in through the API, for preparing data the way another user's browser would. */
export interface Person {
  username: string;
  password: string;
  api: APIRequestContext;
}

/**
 * What the app's pages send with every call (browsers add it themselves): the server refuses a
 * change made with a session cookie without it. The tests' own API calls stand in for those pages.
 */
export const FROM_PAGE = { "sec-fetch-site": "same-origin" } as const;

/** An API session of a user, against the shared e2e server. */
export async function signedIn(username: string, password: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    extraHTTPHeaders: FROM_PAGE,
  });
  const login = await api.post("/auth/login", { form: { username, password } });
  expect(login.ok(), await login.text()).toBe(true);
  return api;
}

/** POSTs JSON and expects success. */
export async function post<T>(api: APIRequestContext, url: string, data: object): Promise<T> {
  const response = await api.post(url, { data });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** A new user with one role in one context, made through the API by an administrator. */
export async function personWithRole(
  adminApi: APIRequestContext,
  user: { username: string; context: string; role: string },
): Promise<Person> {
  const { username, context, role } = user;
  const password = `${role}-password-1`;
  await post(adminApi, "/api/createuser", {
    username,
    password,
    name: `${username} (${role})`,
    email: `${username}@example.com`,
    isadmin: false,
  });
  await post(adminApi, "/api/addrole", { context, username, role });
  return { username, password, api: await signedIn(username, password) };
}
