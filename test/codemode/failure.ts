// The error a promise rejects with, for tests that inspect it; a promise that resolves fails the test.
export async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a failure");
}
