import { FileFormatError } from "./zip-archive.ts";

/** Bytes per block; larger than any one cell's text (32,767 characters, at most 3 bytes each). */
const BLOCK_BYTES = 1 << 20;

/** What the index takes per string: its start (8 bytes) and length (4). */
const INDEX_BYTES = 12;

/**
 * A workbook's shared strings, kept as UTF-8 bytes in blocks of 1 MB and decoded when a cell asks
 * for one.
 *
 * A sheet of 1,000,000 rows can share 3,000,000 strings. Kept as JavaScript strings they took
 * 238 MB of the parsing thread's heap (the parser's strings are slices that keep its chunks of XML
 * alive); as bytes they take what their text takes, about a quarter of that. Decoding per cell
 * costs a few hundred nanoseconds, and the decoded strings die young.
 *
 * The blocks and the index live outside the JavaScript heap, so the parser thread's heap limit
 * does not bound them: `maxBytes` does. Empty strings (`<si/>`, 5 bytes of XML, 12 bytes of index)
 * compress well, and a file of them could otherwise take gigabytes.
 */
export class SharedStrings {
  private readonly blocks: Buffer[] = [];
  private block = Buffer.allocUnsafe(0);
  private used = 0;
  /** Per string: where it starts (block * BLOCK_BYTES + offset) and its length in bytes. */
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private count = 0;
  /** The bytes of the blocks and the index, counted as they are allocated. */
  private allocated = 1024 * INDEX_BYTES;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.count;
  }

  add(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.used + bytes > this.block.length) {
      this.reserve(Math.max(BLOCK_BYTES, bytes));
      this.block = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, bytes));
      this.blocks.push(this.block);
      this.used = 0;
    }
    this.block.write(text, this.used);
    if (this.count === this.starts.length) this.grow();
    this.starts[this.count] = (this.blocks.length - 1) * BLOCK_BYTES + this.used;
    this.lengths[this.count] = bytes;
    this.count++;
    this.used += bytes;
  }

  /** The string at `index`, or undefined past the end. */
  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    const length = this.lengths[index];
    if (length === 0) return "";
    const start = this.starts[index];
    const offset = start % BLOCK_BYTES;
    const block = this.blocks[(start - offset) / BLOCK_BYTES];
    return block.toString("utf8", offset, offset + length);
  }

  /** Counts an allocation against maxBytes before it is made. */
  private reserve(bytes: number): void {
    this.allocated += bytes;
    if (this.allocated <= this.maxBytes) return;
    const mb = Math.round(this.maxBytes / 1024 / 1024).toLocaleString("en-US");
    throw new FileFormatError(
      `The workbook's shared strings take more than ${mb} MB once read (${this.count.toLocaleString("en-US")} strings so far), the most the reader may hold; it was refused`,
    );
  }

  private grow(): void {
    this.reserve(this.starts.length * INDEX_BYTES);
    const starts = new Float64Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
    const lengths = new Uint32Array(this.lengths.length * 2);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}
