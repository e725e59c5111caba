/**
 * MBPP's scoring, the TypeScript counterpart of lm-eval's tasks/mbpp/utils.py. process_results returns a
 * code-score request (plain data) that assay's code stage runs in the sandbox.
 */
type Doc = Record<string, unknown>;

const K = [1, 10];

/**
 * lm-eval's extract_code_blocks keeps the first fenced block; a plain answer after "[BEGIN]" (what the
 * 3-shot prompt elicits from base models) has no fence, so it is kept whole rather than scored empty.
 */
export function extract_code(text: string): string {
  const fenced = /```(?:\w+)?\n?([\s\S]*?)\n?```/.exec(text);
  return fenced ? fenced[1] : text;
}

export function build_predictions(resps: string[][], _docs: Doc[]): string[][] {
  return resps.map((resp) => resp.map(extract_code));
}

/**
 * One checked program per sample: the setup code and the answer run as the program; the problem's
 * asserts run as the test, in a trusted checker process, and pass only when all of them hold.
 */
export function process_results(doc: Doc, results: unknown[]): Record<string, unknown> {
  const first = results[0];
  const samples = (Array.isArray(first) ? first : [first]).map(String);
  const test = `${(doc.test_list as string[]).join('\n')}\n`;
  const setup =
    typeof doc.test_setup_code === 'string' && doc.test_setup_code ? `${doc.test_setup_code}\n` : '';
  return {
    pass_at_k: {
      kind: 'assay.code_score',
      programs: samples.map((sample) => ({ language: 'python', program: `${setup}${sample}\n`, test })),
      rule: { type: 'pass_at_k', k: K },
    },
  };
}

/** lm-eval's three few-shot examples (MBPP task ids 2, 3 and 4 from the prompt split). */
export function list_fewshot_samples(): Doc[] {
  return [
    {
      task_id: 2,
      text: 'Write a function to find the similar elements from the given two tuple lists.',
      code: 'def similar_elements(test_tup1, test_tup2):\r\n  res = tuple(set(test_tup1) & set(test_tup2))\r\n  return (res) ',
      test_list: [
        'assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)',
        'assert similar_elements((1, 2, 3, 4),(5, 4, 3, 7)) == (3, 4)',
        'assert similar_elements((11, 12, 14, 13),(17, 15, 14, 13)) == (13, 14)',
      ],
      is_fewshot: true,
    },
    {
      task_id: 3,
      text: 'Write a python function to identify non-prime numbers.',
      code: 'import math\r\ndef is_not_prime(n):\r\n    result = False\r\n    for i in range(2,int(math.sqrt(n)) + 1):\r\n        if n % i == 0:\r\n            result = True\r\n    return result',
      test_list: [
        'assert is_not_prime(2) == False',
        'assert is_not_prime(10) == True',
        'assert is_not_prime(35) == True',
      ],
      is_fewshot: true,
    },
    {
      task_id: 4,
      text: 'Write a function to find the largest integers from a given list of numbers using heap queue algorithm.',
      code: 'import heapq as hq\r\ndef heap_queue_largest(nums,n):\r\n  largest_nums = hq.nlargest(n, nums)\r\n  return largest_nums',
      test_list: [
        'assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],3)==[85, 75, 65] ',
        'assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],2)==[85, 75] ',
        'assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],5)==[85, 75, 65, 58, 35]',
      ],
      is_fewshot: true,
    },
  ];
}
