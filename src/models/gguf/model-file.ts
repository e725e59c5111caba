import { open, stat } from 'node:fs/promises';
import { AssayError } from '../../errors.js';

/** Magic, version, tensor count and metadata count: the fixed part of every GGUF header. */
const HEADER_BYTES = 24;

/**
 * The checks that need no engine, before one is started: the file exists, is a file, and starts like
 * a GGUF. What only llama.cpp can judge (truncated tensors, bad metadata) is reported from its load.
 */
export async function checkGgufFile(file: string): Promise<void> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new AssayError(
      'bad_model_file',
      error.code === 'ENOENT' ? 'model file not found' : `cannot read the model file (${error.code})`,
      { location: { file }, cause: error },
    );
  });
  if (!info.isFile())
    throw new AssayError('bad_model_file', 'the model is not a file', { location: { file } });
  const head = Buffer.alloc(HEADER_BYTES);
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new AssayError('bad_model_file', `cannot read the model file (${error.code})`, {
      location: { file },
      cause: error,
    });
  });
  let read: number;
  try {
    ({ bytesRead: read } = await handle.read(head, 0, HEADER_BYTES, 0));
  } finally {
    await handle.close();
  }
  const magic = head.subarray(0, 4).toString('latin1');
  if (read >= 4 && magic !== 'GGUF') {
    const shown = [...head.subarray(0, 4)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
    throw new AssayError('bad_model_file', `not a GGUF file: it starts with bytes ${shown}, not "GGUF"`, {
      location: { file },
    });
  }
  if (read < HEADER_BYTES) {
    throw new AssayError(
      'bad_model_file',
      `a GGUF file truncated to ${info.size} bytes (its header alone takes ${HEADER_BYTES})`,
      { location: { file } },
    );
  }
}
