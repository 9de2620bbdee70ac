import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { watchOutput } from "./closed-output.ts";

/** A stream whose reader is gone after `accepted` writes: each later write fails as a closed pipe's does. */
function pipeClosingAfter(accepted: number): { stream: Writable; written: string[] } {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (written.length >= accepted) {
        done(Object.assign(new Error("write EPIPE"), { code: "EPIPE", errno: -32, syscall: "write" }));
        return;
      }
      written.push(chunk.toString());
      done();
    },
  });
  return { stream, written };
}

const tick = () => new Promise((done) => setImmediate(done));

describe("watchOutput", () => {
  it("takes a reader that went away as the end: told once, nothing more written to either stream", async () => {
    const stdout = pipeClosingAfter(1);
    const stderr = pipeClosingAfter(100);
    const onClosed = vi.fn();
    const output = watchOutput({ stdout: stdout.stream, stderr: stderr.stream }, onClosed);
    output.streams.stdout.write("first\n");
    output.streams.stdout.write("second\n");
    output.streams.stderr.write("before\n");
    await tick();
    expect(output.closed).toBe(true);
    expect(onClosed).toHaveBeenCalledTimes(1);
    output.streams.stdout.write("third\n");
    output.streams.stderr.write("after\n");
    await tick();
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(stdout.written).toEqual(["first\n"]);
    expect(stderr.written).toEqual(["before\n"]);
  });

  it("writes everything while both readers read", async () => {
    const stdout = pipeClosingAfter(100);
    const stderr = pipeClosingAfter(100);
    const output = watchOutput({ stdout: stdout.stream, stderr: stderr.stream }, () => {});
    output.streams.stdout.write("out\n");
    output.streams.stderr.write("err\n");
    await tick();
    expect(output.closed).toBe(false);
    expect([stdout.written, stderr.written]).toEqual([["out\n"], ["err\n"]]);
  });
});
