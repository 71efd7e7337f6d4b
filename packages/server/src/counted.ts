/** A count with its words, singular for one: "1 row", "2 rows"; "1 record was", "2 records were". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
