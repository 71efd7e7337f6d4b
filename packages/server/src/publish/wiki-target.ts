/** Where published pages go. Confluence or others fit the same shape. */
export interface WikiTarget {
  /** Says where in the users' terms, for messages and the run record: never a server path or a password. */
  readonly description: string;
  /** Which dialect the pages are written in. */
  readonly format: "markdown" | "wikitext";
  /** The published index page's address, when the target has one. */
  readonly indexUrl: string | undefined;
  /**
   * Opens the target and answers the pages it holds now that this product owns: page id -> what
   * `digest` makes of the page's text (the text itself, where the target hands out whole texts).
   */
  listPages(): Promise<Map<string, string>>;
  /** What listPages answers for a page whose text is `text`; valid once listPages has answered. */
  digest(text: string): string;
  putPage(id: string, text: string): Promise<void>;
  deletePage(id: string): Promise<void>;
  /** Ends a publish (a git commit and push; nothing for a live wiki). */
  finish(message: string): Promise<void>;
}

/** Page ids this product writes; a target never touches other pages. */
export function isOwnedPage(id: string): boolean {
  return id === "Home" || id.startsWith("Application-") || id.startsWith("Object-");
}

/**
 * A target's failure worded for the people who publish: what went wrong and where, in their terms.
 * The cause (git's or the wiki's own text, with paths and addresses) is for the server log only.
 */
export class WikiTargetError extends Error {}
