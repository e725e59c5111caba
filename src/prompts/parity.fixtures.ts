/**
 * Expected prompts for parity.test.ts, produced by lm-eval itself: the strings below are the output of
 * lm-eval's own prompt code at commit 4e7e0d47f33bc71070c1d38394bafbb52b117163, run on these fixture docs:
 *   lm_eval/api/task.py     ConfigurableTask.fewshot_context, build_qa_turn, doc_to_text, doc_to_target,
 *                           doc_to_choice, doc_to_prefix, construct_requests
 *   lm_eval/api/samplers.py ContextSampler (default, seeded random.Random(1234)), FirstNSampler
 *   lm_eval/api/utils.py    maybe_delimit, requires_delimiter, Message, multiturn_to_singleturn
 *   lm_eval/utils.py        apply_template (Jinja2 3.1.6, StrictUndefined, keep_trailing_newline)
 *   lm_eval/config/task.py  TaskConfig / FewshotConfig inheritance
 * Task configs come from lm_eval/tasks/{arc/arc_easy.yaml, hellaswag/hellaswag.yaml (+ utils.py
 * process_docs), gsm8k/gsm8k.yaml, lambada/lambada_openai.yaml, mmlu/default/_default_template_yaml +
 * mmlu_anatomy.yaml, winogrande/default.yaml (+ preprocess_winogrande.py)}; scoring-only keys are dropped.
 * The harness imported lm_eval.api.task with its heavy imports (datasets, numpy, metrics) stubbed, built a
 * ConfigurableTask without downloading data, and recorded, per eval doc in order: the context,
 * the request continuations, doc_to_target, and the pool positions the sampler returned. The chat cases use
 * the ChatML-like template that parity.test.ts re-implements (`chatMl`). Regenerate rather than edit.
 */
import type { Doc } from '../tasks/types.js';

export interface ParityExpectation {
  /** A string, or one context per choice for multiple-input tasks. */
  context: string | string[];
  continuations?: string[];
  target: unknown;
  fewshotIndices: number[];
}

export interface ParityCase {
  config: Record<string, unknown>;
  docs?: Doc[];
  pool?: Doc[];
  /** HellaSwag: docs before process_docs, which the test applies with its TypeScript counterpart. */
  rawDocs?: Doc[];
  rawPool?: Doc[];
  numFewshot?: number;
  systemInstruction?: string;
  chat?: boolean;
  multiturn?: boolean;
  expected: ParityExpectation[];
}

export const PARITY_CASES: Record<string, ParityCase> = {
  arc_easy_0shot: {
    config: {
      task: 'arc_easy',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
      doc_to_target: '{{choices.label.index(answerKey)}}',
      doc_to_choice: '{{choices.text}}',
    },
    docs: [
      {
        id: 'Mercury_417466',
        question: 'Which statement best explains why the Sun\'s "light" reaches Earth?',
        choices: {
          text: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'B',
      },
      {
        id: 'NYSEDREGENTS_2015_4_8',
        question: 'A student drops a ball. Which force pulls it down?',
        choices: {
          text: ['friction', 'gravity', 'magnetism'],
          label: ['1', '2', '3'],
        },
        answerKey: '2',
      },
    ],
    expected: [
      {
        context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
        target: 1,
        fewshotIndices: [],
        continuations: [' It\'s "hot"', ' Light travels through space', ' Earth\\Moon shadows', ' Tab\there'],
      },
      {
        context: 'Question: A student drops a ball. Which force pulls it down?\nAnswer:',
        target: 1,
        fewshotIndices: [],
        continuations: [' friction', ' gravity', ' magnetism'],
      },
    ],
  },
  arc_easy_1shot: {
    config: {
      task: 'arc_easy',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
      doc_to_target: '{{choices.label.index(answerKey)}}',
      doc_to_choice: '{{choices.text}}',
    },
    docs: [
      {
        id: 'Mercury_417466',
        question: 'Which statement best explains why the Sun\'s "light" reaches Earth?',
        choices: {
          text: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'B',
      },
      {
        id: 'NYSEDREGENTS_2015_4_8',
        question: 'A student drops a ball. Which force pulls it down?',
        choices: {
          text: ['friction', 'gravity', 'magnetism'],
          label: ['1', '2', '3'],
        },
        answerKey: '2',
      },
    ],
    pool: [
      {
        id: 'Mercury_7179953',
        question: 'Which of these is a source of light?',
        choices: {
          text: ['a mirror', 'the Moon', 'the Sun', "a cat's eye"],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'C',
      },
      {
        id: 'MCAS_2004_8_27',
        question: 'What do plants need to make food?',
        choices: {
          text: ['sunlight', 'soil only', 'darkness'],
          label: ['1', '2', '3'],
        },
        answerKey: '1',
      },
    ],
    numFewshot: 1,
    expected: [
      {
        context:
          'Question: What do plants need to make food?\nAnswer: sunlight\n\nQuestion: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
        target: 1,
        fewshotIndices: [1],
        continuations: [' It\'s "hot"', ' Light travels through space', ' Earth\\Moon shadows', ' Tab\there'],
      },
      {
        context:
          'Question: Which of these is a source of light?\nAnswer: the Sun\n\nQuestion: A student drops a ball. Which force pulls it down?\nAnswer:',
        target: 1,
        fewshotIndices: [0],
        continuations: [' friction', ' gravity', ' magnetism'],
      },
    ],
  },
  arc_easy_chat_multiturn: {
    config: {
      task: 'arc_easy',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
      doc_to_target: '{{choices.label.index(answerKey)}}',
      doc_to_choice: '{{choices.text}}',
    },
    docs: [
      {
        id: 'Mercury_417466',
        question: 'Which statement best explains why the Sun\'s "light" reaches Earth?',
        choices: {
          text: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'B',
      },
      {
        id: 'NYSEDREGENTS_2015_4_8',
        question: 'A student drops a ball. Which force pulls it down?',
        choices: {
          text: ['friction', 'gravity', 'magnetism'],
          label: ['1', '2', '3'],
        },
        answerKey: '2',
      },
    ],
    pool: [
      {
        id: 'Mercury_7179953',
        question: 'Which of these is a source of light?',
        choices: {
          text: ['a mirror', 'the Moon', 'the Sun', "a cat's eye"],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'C',
      },
      {
        id: 'MCAS_2004_8_27',
        question: 'What do plants need to make food?',
        choices: {
          text: ['sunlight', 'soil only', 'darkness'],
          label: ['1', '2', '3'],
        },
        answerKey: '1',
      },
    ],
    numFewshot: 2,
    systemInstruction: 'You are a careful science tutor.',
    chat: true,
    multiturn: true,
    expected: [
      {
        context:
          '<|im_start|>system\nYou are a careful science tutor.<|im_end|>\n<|im_start|>user\nQuestion: What do plants need to make food?\nAnswer:<|im_end|>\n<|im_start|>assistant\nsunlight<|im_end|>\n<|im_start|>user\nQuestion: Which of these is a source of light?\nAnswer:<|im_end|>\n<|im_start|>assistant\nthe Sun<|im_end|>\n<|im_start|>user\nQuestion: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:<|im_end|>\n<|im_start|>assistant\n',
        target: 1,
        fewshotIndices: [1, 0],
        continuations: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
      },
      {
        context:
          '<|im_start|>system\nYou are a careful science tutor.<|im_end|>\n<|im_start|>user\nQuestion: Which of these is a source of light?\nAnswer:<|im_end|>\n<|im_start|>assistant\nthe Sun<|im_end|>\n<|im_start|>user\nQuestion: What do plants need to make food?\nAnswer:<|im_end|>\n<|im_start|>assistant\nsunlight<|im_end|>\n<|im_start|>user\nQuestion: A student drops a ball. Which force pulls it down?\nAnswer:<|im_end|>\n<|im_start|>assistant\n',
        target: 1,
        fewshotIndices: [0, 1],
        continuations: ['friction', 'gravity', 'magnetism'],
      },
    ],
  },
  arc_easy_chat_singleturn: {
    config: {
      task: 'arc_easy',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
      doc_to_target: '{{choices.label.index(answerKey)}}',
      doc_to_choice: '{{choices.text}}',
    },
    docs: [
      {
        id: 'Mercury_417466',
        question: 'Which statement best explains why the Sun\'s "light" reaches Earth?',
        choices: {
          text: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'B',
      },
      {
        id: 'NYSEDREGENTS_2015_4_8',
        question: 'A student drops a ball. Which force pulls it down?',
        choices: {
          text: ['friction', 'gravity', 'magnetism'],
          label: ['1', '2', '3'],
        },
        answerKey: '2',
      },
    ],
    pool: [
      {
        id: 'Mercury_7179953',
        question: 'Which of these is a source of light?',
        choices: {
          text: ['a mirror', 'the Moon', 'the Sun', "a cat's eye"],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'C',
      },
      {
        id: 'MCAS_2004_8_27',
        question: 'What do plants need to make food?',
        choices: {
          text: ['sunlight', 'soil only', 'darkness'],
          label: ['1', '2', '3'],
        },
        answerKey: '1',
      },
    ],
    numFewshot: 2,
    chat: true,
    multiturn: false,
    expected: [
      {
        context:
          '<|im_start|>user\nQuestion: What do plants need to make food?\nAnswer: sunlight\n\nQuestion: Which of these is a source of light?\nAnswer: the Sun\n\nQuestion: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:<|im_end|>\n<|im_start|>assistant\n',
        target: 1,
        fewshotIndices: [1, 0],
        continuations: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
      },
      {
        context:
          '<|im_start|>user\nQuestion: Which of these is a source of light?\nAnswer: the Sun\n\nQuestion: What do plants need to make food?\nAnswer: sunlight\n\nQuestion: A student drops a ball. Which force pulls it down?\nAnswer:<|im_end|>\n<|im_start|>assistant\n',
        target: 1,
        fewshotIndices: [0, 1],
        continuations: ['friction', 'gravity', 'magnetism'],
      },
    ],
  },
  arc_easy_chat_gen_prefix: {
    config: {
      task: 'arc_easy',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
      doc_to_target: '{{choices.label.index(answerKey)}}',
      doc_to_choice: '{{choices.text}}',
      gen_prefix: 'The answer is',
      description: 'Answer the science question.',
    },
    docs: [
      {
        id: 'Mercury_417466',
        question: 'Which statement best explains why the Sun\'s "light" reaches Earth?',
        choices: {
          text: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'B',
      },
      {
        id: 'NYSEDREGENTS_2015_4_8',
        question: 'A student drops a ball. Which force pulls it down?',
        choices: {
          text: ['friction', 'gravity', 'magnetism'],
          label: ['1', '2', '3'],
        },
        answerKey: '2',
      },
    ],
    pool: [
      {
        id: 'Mercury_7179953',
        question: 'Which of these is a source of light?',
        choices: {
          text: ['a mirror', 'the Moon', 'the Sun', "a cat's eye"],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'C',
      },
      {
        id: 'MCAS_2004_8_27',
        question: 'What do plants need to make food?',
        choices: {
          text: ['sunlight', 'soil only', 'darkness'],
          label: ['1', '2', '3'],
        },
        answerKey: '1',
      },
    ],
    numFewshot: 1,
    chat: true,
    multiturn: true,
    expected: [
      {
        context:
          '<|im_start|>system\nAnswer the science question.<|im_end|>\n<|im_start|>user\nQuestion: What do plants need to make food?\nAnswer:<|im_end|>\n<|im_start|>assistant\nThe answer is sunlight<|im_end|>\n<|im_start|>user\nQuestion: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:<|im_end|>\n<|im_start|>assistant\nThe answer is',
        target: 1,
        fewshotIndices: [1],
        continuations: [' It\'s "hot"', ' Light travels through space', ' Earth\\Moon shadows', ' Tab\there'],
      },
      {
        context:
          '<|im_start|>system\nAnswer the science question.<|im_end|>\n<|im_start|>user\nQuestion: Which of these is a source of light?\nAnswer:<|im_end|>\n<|im_start|>assistant\nThe answer is the Sun<|im_end|>\n<|im_start|>user\nQuestion: A student drops a ball. Which force pulls it down?\nAnswer:<|im_end|>\n<|im_start|>assistant\nThe answer is',
        target: 1,
        fewshotIndices: [0],
        continuations: [' friction', ' gravity', ' magnetism'],
      },
    ],
  },
  arc_easy_plain_gen_prefix: {
    config: {
      task: 'arc_easy',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
      doc_to_target: '{{choices.label.index(answerKey)}}',
      doc_to_choice: '{{choices.text}}',
      gen_prefix: 'The answer is',
      description: 'Answer the science question.',
    },
    docs: [
      {
        id: 'Mercury_417466',
        question: 'Which statement best explains why the Sun\'s "light" reaches Earth?',
        choices: {
          text: ['It\'s "hot"', 'Light travels through space', 'Earth\\Moon shadows', 'Tab\there'],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'B',
      },
      {
        id: 'NYSEDREGENTS_2015_4_8',
        question: 'A student drops a ball. Which force pulls it down?',
        choices: {
          text: ['friction', 'gravity', 'magnetism'],
          label: ['1', '2', '3'],
        },
        answerKey: '2',
      },
    ],
    pool: [
      {
        id: 'Mercury_7179953',
        question: 'Which of these is a source of light?',
        choices: {
          text: ['a mirror', 'the Moon', 'the Sun', "a cat's eye"],
          label: ['A', 'B', 'C', 'D'],
        },
        answerKey: 'C',
      },
      {
        id: 'MCAS_2004_8_27',
        question: 'What do plants need to make food?',
        choices: {
          text: ['sunlight', 'soil only', 'darkness'],
          label: ['1', '2', '3'],
        },
        answerKey: '1',
      },
    ],
    numFewshot: 1,
    systemInstruction: 'Be brief.',
    expected: [
      {
        context:
          'Be brief.\n\nAnswer the science question.Question: What do plants need to make food?\nAnswer: The answer is sunlight\n\nQuestion: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer: The answer is',
        target: 1,
        fewshotIndices: [1],
        continuations: [' It\'s "hot"', ' Light travels through space', ' Earth\\Moon shadows', ' Tab\there'],
      },
      {
        context:
          'Be brief.\n\nAnswer the science question.Question: Which of these is a source of light?\nAnswer: The answer is the Sun\n\nQuestion: A student drops a ball. Which force pulls it down?\nAnswer: The answer is',
        target: 1,
        fewshotIndices: [0],
        continuations: [' friction', ' gravity', ' magnetism'],
      },
    ],
  },
  hellaswag_2shot_default_sampler: {
    config: {
      task: 'hellaswag',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: null,
      process_docs: '!function utils.process_docs',
      doc_to_text: '{{query}}',
      doc_to_target: '{{label}}',
      doc_to_choice: 'choices',
    },
    rawDocs: [
      {
        ind: 24,
        activity_label: 'Roof shingle removal',
        ctx_a: 'A man is sitting on a roof.',
        ctx_b: 'he',
        ctx: 'A man is sitting on a roof. he',
        endings: [
          'is using wrap to wrap a pair of skis.',
          'is ripping level tiles off.',
          "is holding a rubik's cube.",
          'starts pulling up roofing on a roof.',
        ],
        source_id: 'activitynet~v_24',
        split: 'train',
        split_type: 'indomain',
        label: '3',
      },
      {
        ind: 92,
        activity_label: 'Clean and jerk',
        ctx_a: 'A lady walks to a barbell. She bends down and grabs the pole.',
        ctx_b: 'the lady',
        ctx: 'A lady walks to a barbell. She bends down and grabs the pole. the lady',
        endings: [
          'swings and lands in her arms.',
          'pulls the barbell forward.',
          'pulls a rope attached to the barbell.',
          'stands and lifts the weight over her head.',
        ],
        source_id: 'activitynet~v_92',
        split: 'train',
        split_type: 'indomain',
        label: '0',
      },
      {
        ind: 106,
        activity_label: 'Canoeing',
        ctx_a:
          'Two women in a child are shown in a canoe while a man pulls the canoe while standing in the water, with other individuals visible in the background.',
        ctx_b: 'the child and a different man',
        ctx: 'Two women in a child are shown in a canoe while a man pulls the canoe while standing in the water, with other individuals visible in the background. the child and a different man',
        endings: [
          'are then shown paddling down a river in a boat while a woman talks.',
          'are driving the canoe, they go down the river flowing side to side.',
          'sit in a canoe while the man paddles.',
          'walking go down the rapids, while the man in his helicopter almost falls and goes out of canoehood.',
        ],
        source_id: 'activitynet~v_106',
        split: 'train',
        split_type: 'indomain',
        label: '2',
      },
    ],
    rawPool: [
      {
        ind: 4,
        activity_label: 'Removing ice from car',
        ctx_a:
          'Then, the man writes over the snow covering the window of a car, and a woman wearing winter clothes smiles.',
        ctx_b: 'then',
        ctx: 'Then, the man writes over the snow covering the window of a car, and a woman wearing winter clothes smiles. then',
        endings: [
          ', the man adds wax to the windshield and cuts it.',
          ', a person board a ski lift, while two men supporting the head of the person wearing winter clothes snow as the we girls sled.',
          ', the man puts on a christmas coat, knitted with netting.',
          ', the man continues removing the snow on his car.',
        ],
        source_id: 'activitynet~v_4',
        split: 'train',
        split_type: 'indomain',
        label: '2',
      },
      {
        ind: 8,
        activity_label: 'Baking cookies',
        ctx_a:
          'A female chef in white uniform shows a stack of baking pans in a large kitchen presenting them.',
        ctx_b: 'the pans',
        ctx: 'A female chef in white uniform shows a stack of baking pans in a large kitchen presenting them. the pans',
        endings: [
          ' contain cookies and are placed in an oven.',
          ' are then being sold.',
          ' shake and spread out.',
          ' go into the dishwasher.',
        ],
        source_id: 'activitynet~v_8',
        split: 'train',
        split_type: 'indomain',
        label: '0',
      },
      {
        ind: 12,
        activity_label: 'Home and Garden',
        ctx_a: '[header] How to grow tomatoes [title] Pick a sunny spot.',
        ctx_b: '[step] Tomatoes need',
        ctx: '[header] How to grow tomatoes [title] Pick a sunny spot. [step] Tomatoes need',
        endings: [
          'darkness  to grow [title] Water them.',
          ' six to eight hours of sun a day. [substeps] Morning sun is best.',
          'no water at all.',
          'to be left [in] the fridge.',
        ],
        source_id: 'activitynet~v_12',
        split: 'train',
        split_type: 'indomain',
        label: '1',
      },
      {
        ind: 15,
        activity_label: 'Playing guitar',
        ctx_a: 'A man is sitting on a couch holding a guitar.',
        ctx_b: 'he',
        ctx: 'A man is sitting on a couch holding a guitar. he',
        endings: ['eats the guitar.', 'throws it away.', 'falls asleep.', 'strums the strings and sings.'],
        source_id: 'activitynet~v_15',
        split: 'train',
        split_type: 'indomain',
        label: '3',
      },
      {
        ind: 21,
        activity_label: 'Shaving',
        ctx_a: 'A boy is seen looking into a mirror.',
        ctx_b: 'the boy',
        ctx: 'A boy is seen looking into a mirror. the boy',
        endings: [
          'leaves the room.',
          'jumps in a pool.',
          'applies shaving cream to his face.',
          'sings a song.',
        ],
        source_id: 'activitynet~v_21',
        split: 'train',
        split_type: 'indomain',
        label: '2',
      },
      {
        ind: 30,
        activity_label: 'Running a marathon',
        ctx_a: 'Runners line up at the start.',
        ctx_b: 'a gun',
        ctx: 'Runners line up at the start. a gun',
        endings: ['fires and they start running.', 'is drawn by a referee.', 'falls.', 'melts.'],
        source_id: 'activitynet~v_30',
        split: 'train',
        split_type: 'indomain',
        label: '0',
      },
    ],
    numFewshot: 2,
    expected: [
      {
        context:
          'Playing guitar: A man is sitting on a couch holding a guitar. He strums the strings and sings.\n\nRemoving ice from car: Then, the man writes over the snow covering the window of a car, and a woman wearing winter clothes smiles. Then , the man puts on a christmas coat, knitted with netting.\n\nRoof shingle removal: A man is sitting on a roof. He',
        target: 3,
        fewshotIndices: [3, 0],
        continuations: [
          ' is using wrap to wrap a pair of skis.',
          ' is ripping level tiles off.',
          " is holding a rubik's cube.",
          ' starts pulling up roofing on a roof.',
        ],
      },
      {
        context:
          'Removing ice from car: Then, the man writes over the snow covering the window of a car, and a woman wearing winter clothes smiles. Then , the man puts on a christmas coat, knitted with netting.\n\nShaving: A boy is seen looking into a mirror. The boy applies shaving cream to his face.\n\nClean and jerk: A lady walks to a barbell. She bends down and grabs the pole. The lady',
        target: 0,
        fewshotIndices: [0, 4],
        continuations: [
          ' swings and lands in her arms.',
          ' pulls the barbell forward.',
          ' pulls a rope attached to the barbell.',
          ' stands and lifts the weight over her head.',
        ],
      },
      {
        context:
          'Running a marathon: Runners line up at the start. A gun fires and they start running.\n\nRemoving ice from car: Then, the man writes over the snow covering the window of a car, and a woman wearing winter clothes smiles. Then , the man puts on a christmas coat, knitted with netting.\n\nCanoeing: Two women in a child are shown in a canoe while a man pulls the canoe while standing in the water, with other individuals visible in the background. The child and a different man',
        target: 2,
        fewshotIndices: [5, 0],
        continuations: [
          ' are then shown paddling down a river in a boat while a woman talks.',
          ' are driving the canoe, they go down the river flowing side to side.',
          ' sit in a canoe while the man paddles.',
          ' walking go down the rapids, while the man in his helicopter almost falls and goes out of canoehood.',
        ],
      },
    ],
  },
  hellaswag_0shot: {
    config: {
      task: 'hellaswag',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      test_split: null,
      process_docs: '!function utils.process_docs',
      doc_to_text: '{{query}}',
      doc_to_target: '{{label}}',
      doc_to_choice: 'choices',
    },
    rawDocs: [
      {
        ind: 24,
        activity_label: 'Roof shingle removal',
        ctx_a: 'A man is sitting on a roof.',
        ctx_b: 'he',
        ctx: 'A man is sitting on a roof. he',
        endings: [
          'is using wrap to wrap a pair of skis.',
          'is ripping level tiles off.',
          "is holding a rubik's cube.",
          'starts pulling up roofing on a roof.',
        ],
        source_id: 'activitynet~v_24',
        split: 'train',
        split_type: 'indomain',
        label: '3',
      },
      {
        ind: 92,
        activity_label: 'Clean and jerk',
        ctx_a: 'A lady walks to a barbell. She bends down and grabs the pole.',
        ctx_b: 'the lady',
        ctx: 'A lady walks to a barbell. She bends down and grabs the pole. the lady',
        endings: [
          'swings and lands in her arms.',
          'pulls the barbell forward.',
          'pulls a rope attached to the barbell.',
          'stands and lifts the weight over her head.',
        ],
        source_id: 'activitynet~v_92',
        split: 'train',
        split_type: 'indomain',
        label: '0',
      },
      {
        ind: 106,
        activity_label: 'Canoeing',
        ctx_a:
          'Two women in a child are shown in a canoe while a man pulls the canoe while standing in the water, with other individuals visible in the background.',
        ctx_b: 'the child and a different man',
        ctx: 'Two women in a child are shown in a canoe while a man pulls the canoe while standing in the water, with other individuals visible in the background. the child and a different man',
        endings: [
          'are then shown paddling down a river in a boat while a woman talks.',
          'are driving the canoe, they go down the river flowing side to side.',
          'sit in a canoe while the man paddles.',
          'walking go down the rapids, while the man in his helicopter almost falls and goes out of canoehood.',
        ],
        source_id: 'activitynet~v_106',
        split: 'train',
        split_type: 'indomain',
        label: '2',
      },
    ],
    expected: [
      {
        context: 'Roof shingle removal: A man is sitting on a roof. He',
        target: 3,
        fewshotIndices: [],
        continuations: [
          ' is using wrap to wrap a pair of skis.',
          ' is ripping level tiles off.',
          " is holding a rubik's cube.",
          ' starts pulling up roofing on a roof.',
        ],
      },
      {
        context: 'Clean and jerk: A lady walks to a barbell. She bends down and grabs the pole. The lady',
        target: 0,
        fewshotIndices: [],
        continuations: [
          ' swings and lands in her arms.',
          ' pulls the barbell forward.',
          ' pulls a rope attached to the barbell.',
          ' stands and lifts the weight over her head.',
        ],
      },
      {
        context:
          'Canoeing: Two women in a child are shown in a canoe while a man pulls the canoe while standing in the water, with other individuals visible in the background. The child and a different man',
        target: 2,
        fewshotIndices: [],
        continuations: [
          ' are then shown paddling down a river in a boat while a woman talks.',
          ' are driving the canoe, they go down the river flowing side to side.',
          ' sit in a canoe while the man paddles.',
          ' walking go down the rapids, while the man in his helicopter almost falls and goes out of canoehood.',
        ],
      },
    ],
  },
  same_split_3shot: {
    config: {
      task: 'same_split_qa',
      output_type: 'generate_until',
      validation_split: 'validation',
      doc_to_text: 'Q: {{q}}\nA:',
      doc_to_target: ' {{a}}',
      target_delimiter: '',
      fewshot_delimiter: '\n###\n',
    },
    docs: [
      {
        q: 'What is 0 + 0?',
        a: '0',
      },
      {
        q: 'What is 1 + 1?',
        a: '2',
      },
      {
        q: 'What is 2 + 2?',
        a: '4',
      },
      {
        q: 'What is 3 + 3?',
        a: '6',
      },
      {
        q: 'What is 4 + 4?',
        a: '8',
      },
      {
        q: 'What is 5 + 5?',
        a: '10',
      },
    ],
    pool: [
      {
        q: 'What is 0 + 0?',
        a: '0',
      },
      {
        q: 'What is 1 + 1?',
        a: '2',
      },
      {
        q: 'What is 2 + 2?',
        a: '4',
      },
      {
        q: 'What is 3 + 3?',
        a: '6',
      },
      {
        q: 'What is 4 + 4?',
        a: '8',
      },
      {
        q: 'What is 5 + 5?',
        a: '10',
      },
    ],
    numFewshot: 3,
    expected: [
      {
        context:
          'Q: What is 3 + 3?\nA: 6\n###\nQ: What is 4 + 4?\nA: 8\n###\nQ: What is 5 + 5?\nA: 10\n###\nQ: What is 0 + 0?\nA:',
        target: ' 0',
        fewshotIndices: [3, 4, 5],
      },
      {
        context:
          'Q: What is 4 + 4?\nA: 8\n###\nQ: What is 0 + 0?\nA: 0\n###\nQ: What is 5 + 5?\nA: 10\n###\nQ: What is 1 + 1?\nA:',
        target: ' 2',
        fewshotIndices: [4, 0, 5],
      },
      {
        context:
          'Q: What is 1 + 1?\nA: 2\n###\nQ: What is 0 + 0?\nA: 0\n###\nQ: What is 3 + 3?\nA: 6\n###\nQ: What is 2 + 2?\nA:',
        target: ' 4',
        fewshotIndices: [1, 0, 3],
      },
      {
        context:
          'Q: What is 0 + 0?\nA: 0\n###\nQ: What is 2 + 2?\nA: 4\n###\nQ: What is 4 + 4?\nA: 8\n###\nQ: What is 3 + 3?\nA:',
        target: ' 6',
        fewshotIndices: [0, 2, 4],
      },
      {
        context:
          'Q: What is 3 + 3?\nA: 6\n###\nQ: What is 1 + 1?\nA: 2\n###\nQ: What is 0 + 0?\nA: 0\n###\nQ: What is 4 + 4?\nA:',
        target: ' 8',
        fewshotIndices: [3, 1, 0],
      },
      {
        context:
          'Q: What is 0 + 0?\nA: 0\n###\nQ: What is 4 + 4?\nA: 8\n###\nQ: What is 2 + 2?\nA: 4\n###\nQ: What is 5 + 5?\nA:',
        target: ' 10',
        fewshotIndices: [0, 4, 2],
      },
    ],
  },
  gsm8k_3shot: {
    config: {
      task: 'gsm8k',
      output_type: 'generate_until',
      training_split: 'train',
      fewshot_split: 'train',
      test_split: 'test',
      doc_to_text: 'Question: {{question}}\nAnswer:',
      doc_to_target: '{{answer}}',
    },
    docs: [
      {
        question:
          "Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?",
        answer:
          "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day at the farmer's market.\n#### 18",
      },
      {
        question:
          'A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total does it take?',
        answer:
          'It takes 2/2=<<2/2=1>>1 bolt of white fiber\nSo the total amount of fabric is 2+1=<<2+1=3>>3 bolts of fabric\n#### 3',
      },
    ],
    pool: [
      {
        question:
          'Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether in April and May?',
        answer:
          'Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.\n#### 72',
      },
      {
        question:
          'Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. How much did she earn?',
        answer:
          'Weng earns 12/60 = $<<12/60=0.2>>0.2 per minute.\nWorking 50 minutes, she earned 0.2 x 50 = $<<0.2*50=10>>10.\n#### 10',
      },
      {
        question:
          'Betty is saving money for a new wallet which costs $100. How much more money does Betty need?',
        answer: 'In the beginning, Betty has only 100 / 2 = $<<100/2=50>>50.\n#### 5',
      },
      {
        question:
          'James writes a 3-page letter to 2 different friends twice a week. How many pages does he write a year?',
        answer:
          'He writes each friend 3*2=<<3*2=6>>6 pages a week\nSo he writes 6*2=<<6*2=12>>12 pages every week\nThat means he writes 12*52=<<12*52=624>>624 pages a year\n#### 624',
      },
      {
        question: 'Mark has a garden with flowers. How many flowers are there?',
        answer: 'There are 10 yellow flowers.\n#### 35',
      },
    ],
    numFewshot: 3,
    expected: [
      {
        context:
          "Question: James writes a 3-page letter to 2 different friends twice a week. How many pages does he write a year?\nAnswer: He writes each friend 3*2=<<3*2=6>>6 pages a week\nSo he writes 6*2=<<6*2=12>>12 pages every week\nThat means he writes 12*52=<<12*52=624>>624 pages a year\n#### 624\n\nQuestion: Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether in April and May?\nAnswer: Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.\n#### 72\n\nQuestion: Mark has a garden with flowers. How many flowers are there?\nAnswer: There are 10 yellow flowers.\n#### 35\n\nQuestion: Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?\nAnswer:",
        target:
          "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day at the farmer's market.\n#### 18",
        fewshotIndices: [3, 0, 4],
      },
      {
        context:
          'Question: Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether in April and May?\nAnswer: Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.\n#### 72\n\nQuestion: Mark has a garden with flowers. How many flowers are there?\nAnswer: There are 10 yellow flowers.\n#### 35\n\nQuestion: Betty is saving money for a new wallet which costs $100. How much more money does Betty need?\nAnswer: In the beginning, Betty has only 100 / 2 = $<<100/2=50>>50.\n#### 5\n\nQuestion: A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total does it take?\nAnswer:',
        target:
          'It takes 2/2=<<2/2=1>>1 bolt of white fiber\nSo the total amount of fabric is 2+1=<<2+1=3>>3 bolts of fabric\n#### 3',
        fewshotIndices: [0, 4, 2],
      },
    ],
  },
  lambada_openai: {
    config: {
      task: 'lambada_openai',
      output_type: 'loglikelihood',
      test_split: 'test',
      doc_to_text: "{{text.split(' ')[:-1]|join(' ')}}",
      doc_to_target: "{{' '+text.split(' ')[-1]}}",
    },
    docs: [
      {
        text: 'In my palm is a clear stone, and inside it is a small ivory statuette. A guardian angel.\n\n"Figured if you\'re going to be out at night getting hit by cars, you might as well have some backup."\n\nI look at him, feeling stunned. Like this is some sort of sign. But as I stare at Harlin, his mouth curved in a confident grin, I don\'t care about signs',
      },
      {
        text: 'Give me a minute to change and I\'ll meet you at the docks." She\'d forced those words through her teeth.\n\n"No need to change. We won\'t be that long."\n\nShane gripped her arm and started leading her to the dock.\n\n"I can make it there on my own, Shane',
      },
    ],
    expected: [
      {
        context:
          'In my palm is a clear stone, and inside it is a small ivory statuette. A guardian angel.\n\n"Figured if you\'re going to be out at night getting hit by cars, you might as well have some backup."\n\nI look at him, feeling stunned. Like this is some sort of sign. But as I stare at Harlin, his mouth curved in a confident grin, I don\'t care about',
        target: ' signs',
        fewshotIndices: [],
        continuations: [' signs'],
      },
      {
        context:
          'Give me a minute to change and I\'ll meet you at the docks." She\'d forced those words through her teeth.\n\n"No need to change. We won\'t be that long."\n\nShane gripped her arm and started leading her to the dock.\n\n"I can make it there on my own,',
        target: ' Shane',
        fewshotIndices: [],
        continuations: [' Shane'],
      },
    ],
  },
  mmlu_anatomy_5shot_first_n: {
    config: {
      test_split: 'test',
      fewshot_split: 'dev',
      fewshot_config: {
        sampler: 'first_n',
      },
      output_type: 'multiple_choice',
      doc_to_text:
        '{{question.strip()}}\nA. {{choices[0]}}\nB. {{choices[1]}}\nC. {{choices[2]}}\nD. {{choices[3]}}\nAnswer:',
      doc_to_choice: ['A', 'B', 'C', 'D'],
      doc_to_target: 'answer',
      description: 'The following are multiple choice questions (with answers) about anatomy.\n\n',
      task: 'mmlu_anatomy',
    },
    docs: [
      {
        question:
          '  A lesion causing compression of the facial nerve at the stylomastoid foramen will cause ipsilateral\n',
        subject: 'anatomy',
        choices: [
          'paralysis of the facial muscles.',
          'paralysis of the facial muscles and loss of taste.',
          'paralysis of the facial muscles, loss of taste and lacrimation.',
          'paralysis of the facial muscles, loss of taste, lacrimation and decreased salivation.',
        ],
        answer: 0,
      },
      {
        question: 'A "dished face" profile is often associated with',
        subject: 'anatomy',
        choices: [
          'a protruding mandible due to reactivation of the condylar cartilage by acromegaly.',
          'a recessive maxilla due to failure of elongation of the cranial base.',
          'an enlarged frontal bone due to hydrocephaly.',
          'defective development of the maxillary air sinus.',
        ],
        answer: 1,
      },
    ],
    pool: [
      {
        question: 'What is the embryological origin of the hyoid bone?',
        subject: 'anatomy',
        choices: [
          'The first pharyngeal arch',
          'The first and second pharyngeal arches',
          'The second pharyngeal arch',
          'The second and third pharyngeal arches',
        ],
        answer: 3,
      },
      {
        question: 'Which of these branches of the trigeminal nerve contain somatic motor processes?',
        subject: 'anatomy',
        choices: [
          'The supraorbital nerve',
          'The infraorbital nerve',
          'The mental nerve',
          'None of the above',
        ],
        answer: 3,
      },
      {
        question: 'The pleura',
        subject: 'anatomy',
        choices: [
          'have no sensory innervation.',
          'are separated by a 2 mm space.',
          'extend into the neck.',
          'are composed of endoderm.',
        ],
        answer: 2,
      },
      {
        question: "In Angle's Class II Div 2 occlusion there is",
        subject: 'anatomy',
        choices: [
          'excess overbite of the upper lateral incisors.',
          'negative overjet of the upper central incisors.',
          'excess overjet of the upper lateral incisors.',
          'excess overjet of the upper central incisors.',
        ],
        answer: 3,
      },
      {
        question: 'Which of the following is the body cavity that contains the pituitary gland?',
        subject: 'anatomy',
        choices: ['Abdominal', 'Cranial', 'Pleural', 'Spinal'],
        answer: 1,
      },
      {
        question: 'Where is the sixth spare question?',
        subject: 'anatomy',
        choices: ['a', 'b', 'c', 'd'],
        answer: 0,
      },
    ],
    numFewshot: 5,
    expected: [
      {
        context:
          "The following are multiple choice questions (with answers) about anatomy.\n\nWhat is the embryological origin of the hyoid bone?\nA. The first pharyngeal arch\nB. The first and second pharyngeal arches\nC. The second pharyngeal arch\nD. The second and third pharyngeal arches\nAnswer: D\n\nWhich of these branches of the trigeminal nerve contain somatic motor processes?\nA. The supraorbital nerve\nB. The infraorbital nerve\nC. The mental nerve\nD. None of the above\nAnswer: D\n\nThe pleura\nA. have no sensory innervation.\nB. are separated by a 2 mm space.\nC. extend into the neck.\nD. are composed of endoderm.\nAnswer: C\n\nIn Angle's Class II Div 2 occlusion there is\nA. excess overbite of the upper lateral incisors.\nB. negative overjet of the upper central incisors.\nC. excess overjet of the upper lateral incisors.\nD. excess overjet of the upper central incisors.\nAnswer: D\n\nWhich of the following is the body cavity that contains the pituitary gland?\nA. Abdominal\nB. Cranial\nC. Pleural\nD. Spinal\nAnswer: B\n\nA lesion causing compression of the facial nerve at the stylomastoid foramen will cause ipsilateral\nA. paralysis of the facial muscles.\nB. paralysis of the facial muscles and loss of taste.\nC. paralysis of the facial muscles, loss of taste and lacrimation.\nD. paralysis of the facial muscles, loss of taste, lacrimation and decreased salivation.\nAnswer:",
        target: 0,
        fewshotIndices: [0, 1, 2, 3, 4],
        continuations: [' A', ' B', ' C', ' D'],
      },
      {
        context:
          'The following are multiple choice questions (with answers) about anatomy.\n\nWhat is the embryological origin of the hyoid bone?\nA. The first pharyngeal arch\nB. The first and second pharyngeal arches\nC. The second pharyngeal arch\nD. The second and third pharyngeal arches\nAnswer: D\n\nWhich of these branches of the trigeminal nerve contain somatic motor processes?\nA. The supraorbital nerve\nB. The infraorbital nerve\nC. The mental nerve\nD. None of the above\nAnswer: D\n\nThe pleura\nA. have no sensory innervation.\nB. are separated by a 2 mm space.\nC. extend into the neck.\nD. are composed of endoderm.\nAnswer: C\n\nIn Angle\'s Class II Div 2 occlusion there is\nA. excess overbite of the upper lateral incisors.\nB. negative overjet of the upper central incisors.\nC. excess overjet of the upper lateral incisors.\nD. excess overjet of the upper central incisors.\nAnswer: D\n\nWhich of the following is the body cavity that contains the pituitary gland?\nA. Abdominal\nB. Cranial\nC. Pleural\nD. Spinal\nAnswer: B\n\nA "dished face" profile is often associated with\nA. a protruding mandible due to reactivation of the condylar cartilage by acromegaly.\nB. a recessive maxilla due to failure of elongation of the cranial base.\nC. an enlarged frontal bone due to hydrocephaly.\nD. defective development of the maxillary air sinus.\nAnswer:',
        target: 1,
        fewshotIndices: [0, 1, 2, 3, 4],
        continuations: [' A', ' B', ' C', ' D'],
      },
    ],
  },
  winogrande_1shot: {
    config: {
      task: 'winogrande',
      output_type: 'multiple_choice',
      training_split: 'train',
      validation_split: 'validation',
      doc_to_text: '!function preprocess_winogrande.doc_to_text',
      doc_to_target: '!function preprocess_winogrande.doc_to_target',
      doc_to_choice: '!function preprocess_winogrande.doc_to_choice',
    },
    docs: [
      {
        sentence: 'Sarah was a much better surgeon than Maria so _ always got the harder cases.',
        option1: 'Sarah',
        option2: 'Maria',
        answer: '1',
      },
      {
        sentence: "The trophy doesn't fit into the brown suitcase because the _ is too large.",
        option1: 'trophy',
        option2: 'suitcase',
        answer: '1',
      },
    ],
    pool: [
      {
        sentence:
          "Ian volunteered to eat Dennis's menudo after already having a bowl because _ despised eating intestine.",
        option1: 'Ian',
        option2: 'Dennis',
        answer: '2',
      },
      {
        sentence: 'He never comes to my home, but I always go to his house because the _ is smaller.',
        option1: 'home',
        option2: 'house',
        answer: '1',
      },
      {
        sentence:
          "Kyle doesn't wear leg warmers to bed, while Logan almost always does. _ is more likely to live in a colder climate.",
        option1: 'Kyle',
        option2: 'Logan',
        answer: '2',
      },
    ],
    numFewshot: 1,
    expected: [
      {
        context: [
          'He never comes to my home, but I always go to his house because the home is smaller.\n\nSarah was a much better surgeon than Maria so Sarah',
          'He never comes to my home, but I always go to his house because the home is smaller.\n\nSarah was a much better surgeon than Maria so Maria',
        ],
        target: 'always got the harder cases.',
        fewshotIndices: [1],
        continuations: [' always got the harder cases.', ' always got the harder cases.'],
      },
      {
        context: [
          "Ian volunteered to eat Dennis's menudo after already having a bowl because Dennis despised eating intestine.\n\nThe trophy doesn't fit into the brown suitcase because the trophy",
          "Ian volunteered to eat Dennis's menudo after already having a bowl because Dennis despised eating intestine.\n\nThe trophy doesn't fit into the brown suitcase because the suitcase",
        ],
        target: 'is too large.',
        fewshotIndices: [0],
        continuations: [' is too large.', ' is too large.'],
      },
    ],
  },
};
