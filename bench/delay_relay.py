#!/usr/bin/env python3
"""A TCP relay that adds a fixed one-way delay: the latency of a network
between the processes of a cluster, where the kernel has no `tc netem`.

    bench/delay_relay.py DELAY_MS LISTEN_PORT:TARGET_PORT [...]

Listens on 127.0.0.1:LISTEN_PORT for each pair and forwards every
connection to 127.0.0.1:TARGET_PORT; every chunk of bytes, in either
direction, is passed on DELAY_MS milliseconds after it arrived, in order.
Runs until killed.
"""
import asyncio
import sys
import time


async def pump(reader, writer, delay):
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        # Half-close: the other direction may still be carrying data.
        if writer.can_write_eof():
            writer.write_eof()

    sender = asyncio.create_task(deliver())
    try:
        while True:
            data = await reader.read(1 << 16)
            if not data:
                break
            queue.put_nowait((time.monotonic() + delay, data))
    finally:
        queue.put_nowait((0, None))
        await sender


async def serve(listen, target, delay):
    async def handle(reader, writer):
        # The target may not listen yet: retry for a minute.
        for _ in range(600):
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target)
                break
            except OSError:
                await asyncio.sleep(0.1)
        else:
            writer.close()
            return
        await asyncio.gather(
            pump(reader, up_writer, delay),
            pump(up_reader, writer, delay),
            return_exceptions=True,
        )
        writer.close()
        up_writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


async def main():
    delay = float(sys.argv[1]) / 1000.0
    pairs = [tuple(int(x) for x in p.split(":")) for p in sys.argv[2:]]
    await asyncio.gather(*(serve(a, b, delay) for a, b in pairs))


if __name__ == "__main__":
    asyncio.run(main())
