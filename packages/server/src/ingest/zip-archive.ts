import { type Readable, Transform } from "node:stream";
import yauzl from "yauzl";

/** A problem with the uploaded file itself; its message is shown to the user. */
export class FileFormatError extends Error {}

export interface ZipLimits {
  /** Most bytes all parts may decompress to, counted as they stream (zip headers can lie). */
  maxDecompressedBytes: number;
  /** Most a large part may expand relative to its compressed size. */
  maxCompressionRatio: number;
}

/**
 * Most parts a workbook may hold. An .xlsx has tens (a sheet, its relations, styles, shared
 * strings, a drawing or two); hundreds with many sheets and pictures. A hostile archive can list
 * millions, each an object in the parser thread's memory before a byte of XML is read.
 */
export const MAX_ENTRIES = 10_000;

/** An opened .xlsx (zip) file: its entries by name, read as streams with a decompression budget. */
export class ZipArchive {
  private used = 0;

  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly entries: ReadonlyMap<string, yauzl.Entry>,
    private readonly limits: ZipLimits,
  ) {}

  static async open(filePath: string, limits: ZipLimits): Promise<ZipArchive> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(
        filePath,
        { lazyEntries: true, autoClose: false, validateEntrySizes: true },
        (err, z) =>
          err || !z
            ? reject(
                new FileFormatError(
                  "The file is not a valid .xlsx workbook (it is not a zip archive)",
                ),
              )
            : resolve(z),
      ),
    );
    // The count comes from the archive's last record, before its directory is read.
    if (zip.entryCount > MAX_ENTRIES) {
      zip.close();
      throw new FileFormatError(
        `The workbook holds ${zip.entryCount.toLocaleString("en-US")} parts, more than the ${MAX_ENTRIES.toLocaleString("en-US")} a workbook may have; it was refused`,
      );
    }
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on("end", () => resolve());
      zip.on("error", () =>
        reject(new FileFormatError("The file is not a valid .xlsx workbook (damaged zip archive)")),
      );
      zip.readEntry();
    });
    const archive = new ZipArchive(zip, entries, limits);
    archive.checkDeclaredSizes();
    return archive;
  }

  private checkDeclaredSizes(): void {
    let total = 0;
    for (const e of this.entries.values()) {
      total += e.uncompressedSize;
      const ratio = e.uncompressedSize / Math.max(e.compressedSize, 1);
      if (e.uncompressedSize > 1_000_000 && ratio > this.limits.maxCompressionRatio)
        throw new FileFormatError(
          `The workbook part '${e.fileName.slice(0, 100)}' expands to ${Math.round(ratio)} times its packed size, more than the ${this.limits.maxCompressionRatio} times allowed; it was refused as a possible zip bomb`,
        );
    }
    if (total > this.limits.maxDecompressedBytes) throw this.bombError();
  }

  private bombError(): FileFormatError {
    const mb = Math.round(this.limits.maxDecompressedBytes / 1_000_000).toLocaleString("en-US");
    return new FileFormatError(
      `The workbook expands to more than ${mb} MB once unpacked; it was refused`,
    );
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The decompressed bytes of one part, counted against the budget as they arrive. */
  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new FileFormatError(`The workbook has no part '${name}'`);
    const raw = await new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, (err, s) =>
        err || !s
          ? reject(new FileFormatError(`The workbook part '${name}' cannot be read`))
          : resolve(s),
      ),
    );
    const counter = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.used += chunk.length;
        done(this.used > this.limits.maxDecompressedBytes ? this.bombError() : null, chunk);
      },
    });
    raw.on("error", (e) =>
      counter.destroy(
        e instanceof FileFormatError
          ? e
          : new FileFormatError(`The workbook part '${name}' is damaged`),
      ),
    );
    return raw.pipe(counter);
  }

  async text(name: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(name)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }

  close(): void {
    this.zip.close();
  }
}
