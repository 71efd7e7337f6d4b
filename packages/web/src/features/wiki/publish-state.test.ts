import { describe, expect, it } from "vitest";
import {
  canPublish,
  initialPublishState,
  type PublishEvent,
  type PublishState,
  parseServerMessage,
  progressPercent,
  publishReducer,
  publishSocketUrl,
} from "./publish-state.ts";

const run = (...events: PublishEvent[]): PublishState =>
  events.reduce(publishReducer, initialPublishState);

describe("the publish button", () => {
  it("stays disabled until the server has said it is not busy", () => {
    expect(canPublish(initialPublishState)).toBe(false);
    expect(canPublish(run({ type: "statusResponse", busy: false }))).toBe(true);
    expect(canPublish(run({ type: "statusResponse", busy: true }))).toBe(false);
  });

  it("is disabled from the click until the server answers, and back after busy false", () => {
    const clicked = run({ type: "statusResponse", busy: false }, { type: "publishRequested" });
    expect(canPublish(clicked)).toBe(false);
    const done = [
      { type: "statusResponse", busy: true },
      { type: "progress", done: 3, total: 3 },
      { type: "publishResponse", message: "Published", error: false },
      { type: "statusResponse", busy: false },
    ] as const;
    expect(canPublish(done.reduce(publishReducer, clicked))).toBe(true);
  });
});

describe("the publish state", () => {
  it("keeps the result and the last progress of a run", () => {
    const state = run(
      { type: "statusResponse", busy: false },
      { type: "publishRequested" },
      { type: "statusResponse", busy: true },
      { type: "progress", done: 50, total: 120 },
      { type: "progress", done: 120, total: 120 },
      { type: "publishResponse", message: "Published to x", error: false, url: "https://w/x" },
      { type: "statusResponse", busy: false },
    );
    expect(state.progress).toEqual({ done: 120, total: 120 });
    expect(state.result).toEqual({ message: "Published to x", error: false, url: "https://w/x" });
    expect(state.requested).toBe(false);
  });

  it("clears the old result and progress when this page publishes again", () => {
    const state = run(
      { type: "statusResponse", busy: false },
      { type: "progress", done: 3, total: 3 },
      { type: "publishResponse", message: "first", error: false },
      { type: "publishRequested" },
    );
    expect(state.result).toBeNull();
    expect(state.progress).toBeNull();
  });

  it("forgets the old progress when someone else starts a run", () => {
    const state = run(
      { type: "statusResponse", busy: false },
      { type: "progress", done: 3, total: 3 },
      { type: "statusResponse", busy: true },
    );
    expect(state.progress).toBeNull();
  });

  it("ends the request on a refusal while busy", () => {
    const state = run(
      { type: "statusResponse", busy: true },
      { type: "publishRequested" },
      { type: "publishResponse", message: "already in progress", error: true },
    );
    expect(state.requested).toBe(false);
    expect(state.result?.error).toBe(true);
  });
});

describe("parseServerMessage", () => {
  it("reads the three message types", () => {
    expect(parseServerMessage('{"type":"statusResponse","busy":true}')).toEqual({
      type: "statusResponse",
      busy: true,
    });
    expect(parseServerMessage('{"type":"progress","done":1,"total":2}')).toEqual({
      type: "progress",
      done: 1,
      total: 2,
    });
    expect(
      parseServerMessage('{"type":"publishResponse","message":"m","error":false,"url":"http://a"}'),
    ).toEqual({ type: "publishResponse", message: "m", error: false, url: "http://a" });
  });

  it("ignores broken frames and never turns a non-web address into a link", () => {
    expect(parseServerMessage("not json")).toBeNull();
    expect(parseServerMessage('{"type":"statusResponse","busy":"yes"}')).toBeNull();
    expect(parseServerMessage('{"type":"other"}')).toBeNull();
    const message = parseServerMessage(
      '{"type":"publishResponse","message":"m","error":false,"url":"javascript:alert(1)"}',
    );
    expect(message).toEqual({ type: "publishResponse", message: "m", error: false });
  });
});

describe("helpers", () => {
  it("computes the percentage of pages done", () => {
    expect(progressPercent({ done: 0, total: 0 })).toBe(0);
    expect(progressPercent({ done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ done: 3, total: 3 })).toBe(100);
  });

  it("opens the socket on the page's origin, wss under https", () => {
    expect(publishSocketUrl({ protocol: "http:", host: "a:3000" })).toBe("ws://a:3000/ws/publish");
    expect(publishSocketUrl({ protocol: "https:", host: "b" })).toBe("wss://b/ws/publish");
  });
});
