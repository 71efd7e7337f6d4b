import { type Kysely, sql } from "kysely";

/**
 * What the search folds a text to (search/fold.ts does the same in TypeScript): upper to lower case
 * for Latin, Greek and Cyrillic letters, accented Latin letters to their base letter, and the
 * punctuation that separates words to spaces. Character for character, so a match found in the
 * folded text is at the same place in the original. Written out rather than left to `lower()` and
 * `unaccent()`: `lower()` follows the database's collation (C folds ASCII only), and `unaccent` is
 * neither immutable (no index can use it) nor loaded in PGlite; this is the same on both engines.
 */
export const FOLD_FROM =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZ" +
  "ÀÁÂÃÄÅĀĂĄàáâãäåāăą" +
  "ÇĆĈĊČçćĉċč" +
  "ĎĐďđ" +
  "ÈÉÊËĒĔĖĘĚèéêëēĕėęě" +
  "ĜĞĠĢĝğġģ" +
  "ĤĦĥħ" +
  "ÌÍÎÏĨĪĬĮİìíîïĩīĭįı" +
  "Ĵĵ" +
  "Ķķ" +
  "ĹĻĽĿŁĺļľŀł" +
  "ÑŃŅŇñńņň" +
  "ÒÓÔÕÖØŌŎŐòóôõöøōŏő" +
  "ŔŖŘŕŗř" +
  "ŚŜŞŠȘśŝşšș" +
  "ŢŤŦȚţťŧț" +
  "ÙÚÛÜŨŪŬŮŰŲùúûüũūŭůűų" +
  "ÝŸŶýÿŷ" +
  "ŹŻŽźżž" +
  "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯё" +
  "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩάέήίόύώς" +
  "_-./,;:()[]{}'\"!?@#&*+=|\\<>~^$%`\t\n\r";

export const FOLD_TO =
  "abcdefghijklmnopqrstuvwxyz" +
  "aaaaaaaaaaaaaaaaaa" +
  "cccccccccc" +
  "dddd" +
  "eeeeeeeeeeeeeeeeee" +
  "gggggggg" +
  "hhhh" +
  "iiiiiiiiiiiiiiiiii" +
  "jj" +
  "kk" +
  "llllllllll" +
  "nnnnnnnn" +
  "oooooooooooooooooo" +
  "rrrrrr" +
  "ssssssssss" +
  "tttttttt" +
  "uuuuuuuuuuuuuuuuuuuu" +
  "yyyyyy" +
  "zzzzzz" +
  "абвгдеежзийклмнопрстуфхцчшщъыьэюяе" +
  "αβγδεζηθικλμνξοπρστυφχψωαεηιουωσ" +
  "                                   ";

/**
 * `app.search_fold(text)`: a space, then the text folded (above); the space lets a word's start be
 * matched as `% word`. `app.search_start(text)`: its first 64 characters, what the btree index of a
 * searchable attribute holds (a whole long text would not fit an index entry).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const from = FOLD_FROM.replaceAll("'", "''");
  const to = FOLD_TO.replaceAll("'", "''");
  await sql
    .raw(`create function app.search_fold(value text) returns text
    language sql immutable strict parallel safe
    return ' ' || translate(value, '${from}', '${to}')`)
    .execute(db);
  await sql`create function app.search_start(value text) returns text
    language sql immutable strict parallel safe
    return left(app.search_fold(value), 64)`.execute(db);
}
