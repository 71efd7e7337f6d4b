import { describe, expect, it } from "vitest";
import { nextFlags } from "./oidc.service.ts";

const user = (flags: Partial<Parameters<typeof nextFlags>[0]> = {}) => ({
  isadmin: false,
  isdev: false,
  issuperadmin: false,
  oidc_isadmin: false,
  oidc_isdev: false,
  ...flags,
});

describe("the flags after a company sign-in", () => {
  it("are set by a group that gives them, marked as the mapping's", () => {
    expect(nextFlags(user(), { isadmin: true, isdev: true })).toEqual({
      isadmin: true,
      oidc_isadmin: true,
      isdev: true,
      oidc_isdev: true,
    });
  });

  it("are taken back when the groups no longer give them, if the mapping had set them", () => {
    expect(
      nextFlags(user({ isadmin: true, oidc_isadmin: true, isdev: true, oidc_isdev: true }), {
        isadmin: false,
        isdev: false,
      }),
    ).toEqual({ isadmin: false, oidc_isadmin: false, isdev: false, oidc_isdev: false });
  });

  it("stay when they were set by hand, whatever the groups say", () => {
    const byHand = user({ isadmin: true, isdev: true });
    expect(nextFlags(byHand, { isadmin: false, isdev: false })).toEqual({
      isadmin: true,
      oidc_isadmin: false,
      isdev: true,
      oidc_isdev: false,
    });
    // A group giving a flag already held by hand does not make it the mapping's.
    expect(nextFlags(byHand, { isadmin: true, isdev: true }).oidc_isadmin).toBe(false);
  });

  it("never take isadmin from a super administrator", () => {
    const superadmin = user({ isadmin: true, oidc_isadmin: true, issuperadmin: true });
    expect(nextFlags(superadmin, { isadmin: false, isdev: false })).toMatchObject({
      isadmin: true,
      oidc_isadmin: false,
    });
  });
});
