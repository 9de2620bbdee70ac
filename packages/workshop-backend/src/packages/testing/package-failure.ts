import { PackageError } from "../package-error.ts";

/** The PackageError a promise is refused with; anything else (a value, another error) fails the test. */
export async function packageFailure(promise: Promise<unknown>): Promise<PackageError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof PackageError)) throw new Error(`expected a PackageError, got ${String(error)}`);
  return error;
}
