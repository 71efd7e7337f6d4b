/**
 * A moment between two steps of a test, a few milliseconds clear of the writes on either side:
 * what a list as of it shows is what the steps before it wrote, and none of those after it.
 */
export async function momentBetweenSteps(): Promise<string> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
  await pause();
  const at = new Date().toISOString();
  await pause();
  return at;
}
