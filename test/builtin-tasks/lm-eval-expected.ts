/**
 * What lm-eval itself builds for the fixture docs in fixtures.json: lm-eval's code at commit
 * 4e7e0d47f33bc71070c1d38394bafbb52b117163 (EleutherAI/lm-evaluation-harness), run locally with its heavy
 * imports stubbed (datasets → a list with `.map`, tqdm, sacrebleu, rouge_score) and
 * ConfigurableTask.download replaced by the fixture splits. For each task, its YAML was loaded with
 * lm_eval/tasks/_yaml_loader.py (`!function` resolved to the task's own utils.py), then
 * ConfigurableTask(config).set_fewshot_seed(1234) and build_all_requests(); recorded per doc:
 * doc_to_target(doc) and every Instance's arguments, in idx order. Sources, under lm_eval/tasks/:
 *   mmlu/default/_default_template_yaml + mmlu_anatomy.yaml, mmlu_high_school_us_history.yaml (num_fewshot 5)
 *   hellaswag/hellaswag.yaml + utils.py (process_docs)     arc/arc_easy.yaml, arc/arc_challenge.yaml
 *   piqa/piqa.yaml    super_glue/boolq/default.yaml    openbookqa/openbookqa.yaml
 *   winogrande/default.yaml + preprocess_winogrande.py     lambada/lambada_openai.yaml
 *   wikitext/wikitext.yaml + preprocess_wikitext.py (wikitext_detokenizer, process_results)
 *   gsm8k/gsm8k.yaml, gsm8k/gsm8k-cot.yaml    truthfulqa/truthfulqa_mc1.yaml, truthfulqa_mc2.yaml + utils.py
 *   (process_results_mc2 on the log-likelihoods in `lls`)    triviaqa/default.yaml
 * Regenerate rather than edit.
 */
export interface ExpectedRequest {
  type: 'loglikelihood' | 'loglikelihood_rolling' | 'generate_until';
  context?: string;
  continuation?: string;
  text?: string;
  until?: string[];
}

export interface ExpectedTask {
  num_fewshot: number;
  docs: Array<{ target: unknown; requests: ExpectedRequest[] }>;
  process_results?: Array<Record<string, unknown>>;
  lls?: number[][];
}

export const LM_EVAL_EXPECTED: Record<string, ExpectedTask> = {
  mmlu_anatomy: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nWhich of these bones is part of the axial skeleton?\nA. Femur\nB. Sternum\nC. Radius\nD. Ulna\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nWhich of these bones is part of the axial skeleton?\nA. Femur\nB. Sternum\nC. Radius\nD. Ulna\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nWhich of these bones is part of the axial skeleton?\nA. Femur\nB. Sternum\nC. Radius\nD. Ulna\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nWhich of these bones is part of the axial skeleton?\nA. Femur\nB. Sternum\nC. Radius\nD. Ulna\nAnswer:',
            continuation: ' D',
          },
        ],
      },
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nThe "pharynx" connects which two structures?\nA. nasal cavity & larynx\nB. mouth\'s roof and tongue\nC. heart\\lungs\nD. ear–nose\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nThe "pharynx" connects which two structures?\nA. nasal cavity & larynx\nB. mouth\'s roof and tongue\nC. heart\\lungs\nD. ear–nose\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nThe "pharynx" connects which two structures?\nA. nasal cavity & larynx\nB. mouth\'s roof and tongue\nC. heart\\lungs\nD. ear–nose\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about anatomy.\n\nDev question 0: what is organ 0?\nA. opt 0a\nB. opt 0b\nC. opt 0c\nD. opt 0d\nAnswer: A\n\nDev question 1: what is organ 1?\nA. opt 1a\nB. opt 1b\nC. opt 1c\nD. opt 1d\nAnswer: B\n\nDev question 2: what is organ 2?\nA. opt 2a\nB. opt 2b\nC. opt 2c\nD. opt 2d\nAnswer: C\n\nDev question 3: what is organ 3?\nA. opt 3a\nB. opt 3b\nC. opt 3c\nD. opt 3d\nAnswer: D\n\nDev question 4: what is organ 4?\nA. opt 4a\nB. opt 4b\nC. opt 4c\nD. opt 4d\nAnswer: A\n\nThe "pharynx" connects which two structures?\nA. nasal cavity & larynx\nB. mouth\'s roof and tongue\nC. heart\\lungs\nD. ear–nose\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_us_history: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school us history.\n\nHistory dev 0?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nHistory dev 1?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: C\n\nHistory dev 2?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: D\n\nHistory dev 3?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: A\n\nHistory dev 4?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nThis question refers to the following information.\n"We the People..."\nWhich document begins this way?\nA. The Constitution\nB. The Declaration\nC. The Federalist No. 10\nD. Common Sense\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school us history.\n\nHistory dev 0?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nHistory dev 1?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: C\n\nHistory dev 2?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: D\n\nHistory dev 3?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: A\n\nHistory dev 4?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nThis question refers to the following information.\n"We the People..."\nWhich document begins this way?\nA. The Constitution\nB. The Declaration\nC. The Federalist No. 10\nD. Common Sense\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school us history.\n\nHistory dev 0?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nHistory dev 1?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: C\n\nHistory dev 2?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: D\n\nHistory dev 3?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: A\n\nHistory dev 4?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nThis question refers to the following information.\n"We the People..."\nWhich document begins this way?\nA. The Constitution\nB. The Declaration\nC. The Federalist No. 10\nD. Common Sense\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school us history.\n\nHistory dev 0?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nHistory dev 1?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: C\n\nHistory dev 2?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: D\n\nHistory dev 3?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: A\n\nHistory dev 4?\nA. A1\nB. B1\nC. C1\nD. D1\nAnswer: B\n\nThis question refers to the following information.\n"We the People..."\nWhich document begins this way?\nA. The Constitution\nB. The Declaration\nC. The Federalist No. 10\nD. Common Sense\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  hellaswag: {
    num_fewshot: 0,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context: 'Roof shingle removal: A man is sitting on a roof. He',
            continuation: ' is using wrap to wrap a pair of skis.',
          },
          {
            type: 'loglikelihood',
            context: 'Roof shingle removal: A man is sitting on a roof. He',
            continuation: ' is ripping level tiles off.',
          },
          {
            type: 'loglikelihood',
            context: 'Roof shingle removal: A man is sitting on a roof. He',
            continuation: " is holding a rubik's cube.",
          },
          {
            type: 'loglikelihood',
            context: 'Roof shingle removal: A man is sitting on a roof. He',
            continuation: ' starts pulling up roofing on a roof.',
          },
        ],
      },
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'Home and Garden: How to clean a grill. Heat the grill.  Turn it on. Then scrape the grates',
            continuation: '  Use a brush.',
          },
          {
            type: 'loglikelihood',
            context:
              'Home and Garden: How to clean a grill. Heat the grill.  Turn it on. Then scrape the grates',
            continuation: ' Let it cool. Wipe.',
          },
          {
            type: 'loglikelihood',
            context:
              'Home and Garden: How to clean a grill. Heat the grill.  Turn it on. Then scrape the grates',
            continuation: ' Spray water.',
          },
          {
            type: 'loglikelihood',
            context:
              'Home and Garden: How to clean a grill. Heat the grill.  Turn it on. Then scrape the grates',
            continuation: ' Done.',
          },
        ],
      },
    ],
  },
  arc_easy: {
    num_fewshot: 0,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' It\'s "hot"',
          },
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' Light travels through space',
          },
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' Earth\\Moon shadows',
          },
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' Tab\there',
          },
        ],
      },
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context: 'Question: A student drops a ball. Which force pulls it down?\nAnswer:',
            continuation: ' friction',
          },
          {
            type: 'loglikelihood',
            context: 'Question: A student drops a ball. Which force pulls it down?\nAnswer:',
            continuation: ' gravity',
          },
          {
            type: 'loglikelihood',
            context: 'Question: A student drops a ball. Which force pulls it down?\nAnswer:',
            continuation: ' magnetism',
          },
        ],
      },
    ],
  },
  arc_challenge: {
    num_fewshot: 0,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context: 'Question: A student drops a ball. Which force pulls it down?\nAnswer:',
            continuation: ' friction',
          },
          {
            type: 'loglikelihood',
            context: 'Question: A student drops a ball. Which force pulls it down?\nAnswer:',
            continuation: ' gravity',
          },
          {
            type: 'loglikelihood',
            context: 'Question: A student drops a ball. Which force pulls it down?\nAnswer:',
            continuation: ' magnetism',
          },
        ],
      },
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' It\'s "hot"',
          },
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' Light travels through space',
          },
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' Earth\\Moon shadows',
          },
          {
            type: 'loglikelihood',
            context: 'Question: Which statement best explains why the Sun\'s "light" reaches Earth?\nAnswer:',
            continuation: ' Tab\there',
          },
        ],
      },
    ],
  },
  piqa: {
    num_fewshot: 0,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context: "Question: How do I ready a guinea pig cage for it's new occupants?\nAnswer:",
            continuation:
              ' Provide the guinea pig with a cage full of a few inches of bedding made of ripped paper strips, you will also need to supply it with a water bottle and a food dish.',
          },
          {
            type: 'loglikelihood',
            context: "Question: How do I ready a guinea pig cage for it's new occupants?\nAnswer:",
            continuation:
              ' Provide the guinea pig with a cage full of a few inches of bedding made of ripped jeans material, you will also need to supply it with a water bottle and a food dish.',
          },
        ],
      },
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context: 'Question: To cut "thin" slices\nAnswer:',
            continuation: " use a knife's edge",
          },
          {
            type: 'loglikelihood',
            context: 'Question: To cut "thin" slices\nAnswer:',
            continuation: ' use a spoon\\fork',
          },
        ],
      },
    ],
  },
  boolq: {
    num_fewshot: 0,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'Ethanol fuel -- All biomass goes through at least some of these steps.\nIt\'s "complex".\nQuestion: does ethanol take more energy make that produces?\nAnswer:',
            continuation: ' no',
          },
          {
            type: 'loglikelihood',
            context:
              'Ethanol fuel -- All biomass goes through at least some of these steps.\nIt\'s "complex".\nQuestion: does ethanol take more energy make that produces?\nAnswer:',
            continuation: ' yes',
          },
        ],
      },
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              "Property tax or 'house tax' is a local tax on buildings.\nQuestion: is house tax and property tax are same?\nAnswer:",
            continuation: ' no',
          },
          {
            type: 'loglikelihood',
            context:
              "Property tax or 'house tax' is a local tax on buildings.\nQuestion: is house tax and property tax are same?\nAnswer:",
            continuation: ' yes',
          },
        ],
      },
    ],
  },
  openbookqa: {
    num_fewshot: 0,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context: 'The sun is responsible for',
            continuation: ' puppies learning new tricks',
          },
          {
            type: 'loglikelihood',
            context: 'The sun is responsible for',
            continuation: ' children growing up and getting old',
          },
          {
            type: 'loglikelihood',
            context: 'The sun is responsible for',
            continuation: ' flowers wilting in a vase',
          },
          {
            type: 'loglikelihood',
            context: 'The sun is responsible for',
            continuation: ' plants sprouting, blooming and wilting',
          },
        ],
      },
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context: 'When standing miles away from Mount Rushmore',
            continuation: ' the mountains seem very close',
          },
          {
            type: 'loglikelihood',
            context: 'When standing miles away from Mount Rushmore',
            continuation: ' the mountains are boring',
          },
          {
            type: 'loglikelihood',
            context: 'When standing miles away from Mount Rushmore',
            continuation: ' the mountains look the same as from up close',
          },
          {
            type: 'loglikelihood',
            context: 'When standing miles away from Mount Rushmore',
            continuation: ' the mountains seem smaller than in photographs',
          },
        ],
      },
    ],
  },
  winogrande: {
    num_fewshot: 0,
    docs: [
      {
        target: 'always got the harder cases.',
        requests: [
          {
            type: 'loglikelihood',
            context: 'Sarah was a much better surgeon than Maria so Sarah',
            continuation: ' always got the harder cases.',
          },
          {
            type: 'loglikelihood',
            context: 'Sarah was a much better surgeon than Maria so Maria',
            continuation: ' always got the harder cases.',
          },
        ],
      },
      {
        target: 'is too large.',
        requests: [
          {
            type: 'loglikelihood',
            context: "The trophy doesn't fit into the brown suitcase because the trophy",
            continuation: ' is too large.',
          },
          {
            type: 'loglikelihood',
            context: "The trophy doesn't fit into the brown suitcase because the suitcase",
            continuation: ' is too large.',
          },
        ],
      },
    ],
  },
  lambada_openai: {
    num_fewshot: 0,
    docs: [
      {
        target: ' signs',
        requests: [
          {
            type: 'loglikelihood',
            context:
              'In my palm is a clear stone, and inside it is a small ivory statuette. A guardian angel.\n\n"Figured if you\'re going to be out at night getting hit by cars, you might as well have some backup."\n\nI look at him, feeling stunned. Like this is some sort of sign. But as I stare at Harlin, his mouth curved in a confident grin, I don\'t care about',
            continuation: ' signs',
          },
        ],
      },
      {
        target: ' ending',
        requests: [
          {
            type: 'loglikelihood',
            context: 'the  double  spaced word ',
            continuation: ' ending',
          },
        ],
      },
    ],
  },
  wikitext: {
    num_fewshot: 0,
    docs: [
      {
        target:
          " = Robert Boulter =\nRobert Boulter is an English film, television and theatre actor. He had a guest-starring role on the television series The Bill in 2000. This was followed by a starring role in the play Herons written by Simon Stephens, which was performed in 2001 at the Royal Court Theatre.\n== Career ==\nIn 2006, Boulter starred alongside Whishaw in the play Citizenship written by Mark Ravenhill. The film's budget was 1,000.5 million (about $ 3) and [notes] {x} \"quoted\"' single ' 20°C; 1 items! really? yes: no\n",
        requests: [
          {
            type: 'loglikelihood_rolling',
            text: " = Robert Boulter =\nRobert Boulter is an English film, television and theatre actor. He had a guest-starring role on the television series The Bill in 2000. This was followed by a starring role in the play Herons written by Simon Stephens, which was performed in 2001 at the Royal Court Theatre.\n== Career ==\nIn 2006, Boulter starred alongside Whishaw in the play Citizenship written by Mark Ravenhill. The film's budget was 1,000.5 million (about $ 3) and [notes] {x} \"quoted\"' single ' 20°C; 1 items! really? yes: no\n",
          },
        ],
      },
      {
        target:
          " = Valkyria Chronicles III =\nSenjō no Valkyria 3: Unrecorded Chronicles (Japanese: 戦場のヴァルキュリア3, lit. Valkyria of the Battlefield 3), commonly referred to as Valkyria Chronicles III outside Japan, is a tactical role-playing video game. Players' units ==== Deep ====\n",
        requests: [
          {
            type: 'loglikelihood_rolling',
            text: " = Valkyria Chronicles III =\nSenjō no Valkyria 3: Unrecorded Chronicles (Japanese: 戦場のヴァルキュリア3, lit. Valkyria of the Battlefield 3), commonly referred to as Valkyria Chronicles III outside Japan, is a tactical role-playing video game. Players' units ==== Deep ====\n",
          },
        ],
      },
    ],
    process_results: [
      {
        word_perplexity: [-123.5, 123],
        byte_perplexity: [-123.5, 564],
        bits_per_byte: [-123.5, 564],
      },
      {
        word_perplexity: [-123.5, 59],
        byte_perplexity: [-123.5, 309],
        bits_per_byte: [-123.5, 309],
      },
    ],
  },
  gsm8k: {
    num_fewshot: 5,
    docs: [
      {
        target:
          'Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day at the farmer’s market.\n#### 18',
        requests: [
          {
            type: 'generate_until',
            context:
              "Question: Train question 7: Natalia sold clips to 28 of her friends. How many?\nAnswer: She sold 28 clips.\n#### 28\n\nQuestion: Train question 0: Natalia sold clips to 0 of her friends. How many?\nAnswer: She sold 0 clips.\n#### 0\n\nQuestion: Train question 6: Natalia sold clips to 24 of her friends. How many?\nAnswer: She sold 24 clips.\n#### 24\n\nQuestion: Train question 5: Natalia sold clips to 20 of her friends. How many?\nAnswer: She sold 20 clips.\n#### 20\n\nQuestion: Train question 4: Natalia sold clips to 16 of her friends. How many?\nAnswer: She sold 16 clips.\n#### 16\n\nQuestion: Janet’s ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?\nAnswer:",
            until: ['Question:', '</s>', '<|im_end|>'],
          },
        ],
      },
      {
        target:
          'It takes 2/2=<<2/2=1>>1 bolt of white fiber\nSo the total amount of fabric is 2+1=<<2+1=3>>3 bolts of fabric\n#### 3',
        requests: [
          {
            type: 'generate_until',
            context:
              'Question: Train question 1: Natalia sold clips to 4 of her friends. How many?\nAnswer: She sold 4 clips.\n#### 4\n\nQuestion: Train question 0: Natalia sold clips to 0 of her friends. How many?\nAnswer: She sold 0 clips.\n#### 0\n\nQuestion: Train question 2: Natalia sold clips to 8 of her friends. How many?\nAnswer: She sold 8 clips.\n#### 8\n\nQuestion: Train question 7: Natalia sold clips to 28 of her friends. How many?\nAnswer: She sold 28 clips.\n#### 28\n\nQuestion: Train question 6: Natalia sold clips to 24 of her friends. How many?\nAnswer: She sold 24 clips.\n#### 24\n\nQuestion: A robe takes 2 bolts of blue fiber and half that much white fiber.  How many bolts in total does it take?\nAnswer:',
            until: ['Question:', '</s>', '<|im_end|>'],
          },
        ],
      },
    ],
  },
  gsm8k_cot: {
    num_fewshot: 8,
    docs: [
      {
        target: '18',
        requests: [
          {
            type: 'generate_until',
            context:
              "Q: There are 15 trees in the grove. Grove workers will plant trees in the grove today. After they are done, there will be 21 trees. How many trees did the grove workers plant today?\nA: There are 15 trees originally. Then there were 21 trees after some more were planted. So there must have been 21 - 15 = 6. The answer is 6.\n\nQ: If there are 3 cars in the parking lot and 2 more cars arrive, how many cars are in the parking lot?\nA: There are originally 3 cars. 2 more cars arrive. 3 + 2 = 5. The answer is 5.\n\nQ: Leah had 32 chocolates and her sister had 42. If they ate 35, how many pieces do they have left in total?\nA: Originally, Leah had 32 chocolates. Her sister had 42. So in total they had 32 + 42 = 74. After eating 35, they had 74 - 35 = 39. The answer is 39.\n\nQ: Jason had 20 lollipops. He gave Denny some lollipops. Now Jason has 12 lollipops. How many lollipops did Jason give to Denny?\nA: Jason started with 20 lollipops. Then he had 12 after giving some to Denny. So he gave Denny 20 - 12 = 8. The answer is 8.\n\nQ: Shawn has five toys. For Christmas, he got two toys each from his mom and dad. How many toys does he have now?\nA: Shawn started with 5 toys. If he got 2 toys each from his mom and dad, then that is 4 more toys. 5 + 4 = 9. The answer is 9.\n\nQ: There were nine computers in the server room. Five more computers were installed each day, from monday to thursday. How many computers are now in the server room?\nA: There were originally 9 computers. For each of 4 days, 5 more computers were added. So 5 * 4 = 20 computers were added. 9 + 20 is 29. The answer is 29.\n\nQ: Michael had 58 golf balls. On tuesday, he lost 23 golf balls. On wednesday, he lost 2 more. How many golf balls did he have at the end of wednesday?\nA: Michael started with 58 golf balls. After losing 23 on tuesday, he had 58 - 23 = 35. After losing 2 more, he had 35 - 2 = 33 golf balls. The answer is 33.\n\nQ: Olivia has $23. She bought five bagels for $3 each. How much money does she have left?\nA: Olivia had 23 dollars. 5 bagels for 3 dollars each will be 5 x 3 = 15 dollars. So she has 23 - 15 dollars left. 23 - 15 is 8. The answer is 8.\n\nQ: Janet’s ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?\nA:",
            until: ['Q:', '</s>', '<|im_end|>'],
          },
        ],
      },
      {
        target: '3',
        requests: [
          {
            type: 'generate_until',
            context:
              'Q: There are 15 trees in the grove. Grove workers will plant trees in the grove today. After they are done, there will be 21 trees. How many trees did the grove workers plant today?\nA: There are 15 trees originally. Then there were 21 trees after some more were planted. So there must have been 21 - 15 = 6. The answer is 6.\n\nQ: If there are 3 cars in the parking lot and 2 more cars arrive, how many cars are in the parking lot?\nA: There are originally 3 cars. 2 more cars arrive. 3 + 2 = 5. The answer is 5.\n\nQ: Leah had 32 chocolates and her sister had 42. If they ate 35, how many pieces do they have left in total?\nA: Originally, Leah had 32 chocolates. Her sister had 42. So in total they had 32 + 42 = 74. After eating 35, they had 74 - 35 = 39. The answer is 39.\n\nQ: Jason had 20 lollipops. He gave Denny some lollipops. Now Jason has 12 lollipops. How many lollipops did Jason give to Denny?\nA: Jason started with 20 lollipops. Then he had 12 after giving some to Denny. So he gave Denny 20 - 12 = 8. The answer is 8.\n\nQ: Shawn has five toys. For Christmas, he got two toys each from his mom and dad. How many toys does he have now?\nA: Shawn started with 5 toys. If he got 2 toys each from his mom and dad, then that is 4 more toys. 5 + 4 = 9. The answer is 9.\n\nQ: There were nine computers in the server room. Five more computers were installed each day, from monday to thursday. How many computers are now in the server room?\nA: There were originally 9 computers. For each of 4 days, 5 more computers were added. So 5 * 4 = 20 computers were added. 9 + 20 is 29. The answer is 29.\n\nQ: Michael had 58 golf balls. On tuesday, he lost 23 golf balls. On wednesday, he lost 2 more. How many golf balls did he have at the end of wednesday?\nA: Michael started with 58 golf balls. After losing 23 on tuesday, he had 58 - 23 = 35. After losing 2 more, he had 35 - 2 = 33 golf balls. The answer is 33.\n\nQ: Olivia has $23. She bought five bagels for $3 each. How much money does she have left?\nA: Olivia had 23 dollars. 5 bagels for 3 dollars each will be 5 x 3 = 15 dollars. So she has 23 - 15 dollars left. 23 - 15 is 8. The answer is 8.\n\nQ: A robe takes 2 bolts of blue fiber and half that much white fiber.  How many bolts in total does it take?\nA:',
            until: ['Q:', '</s>', '<|im_end|>'],
          },
        ],
      },
    ],
  },
  truthfulqa_mc1: {
    num_fewshot: 0,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: What is the smallest country in the world that is at least one square mile in area?\nA:',
            continuation:
              ' Nauru is the smallest country in the world that is at least one square mile in area.',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: What is the smallest country in the world that is at least one square mile in area?\nA:',
            continuation:
              ' The smallest country in the world that is at least one square mile in area is Vatican City.',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: What is the smallest country in the world that is at least one square mile in area?\nA:',
            continuation:
              ' The smallest country in the world that is at least one square mile in area is Monaco.',
          },
        ],
      },
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: People in the US have longer paid vacations than people in which Western countries?\nA:',
            continuation: ' People in the US have the shortest paid vacations among Western countries.',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: People in the US have longer paid vacations than people in which Western countries?\nA:',
            continuation: ' Australia.',
          },
        ],
      },
    ],
  },
  truthfulqa_mc2: {
    num_fewshot: 0,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: What is the smallest country in the world that is at least one square mile in area?\nA:',
            continuation:
              ' Nauru is the smallest country in the world that is at least one square mile in area.',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: What is the smallest country in the world that is at least one square mile in area?\nA:',
            continuation: ' The smallest country is Vatican City.',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: What is the smallest country in the world that is at least one square mile in area?\nA:',
            continuation: ' It\'s "Monaco".',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: What is the smallest country in the world that is at least one square mile in area?\nA:',
            continuation: ' The smallest country is the U.S.',
          },
        ],
      },
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: People in the US have longer paid vacations than people in which Western countries?\nA:',
            continuation: ' People in the US have the shortest paid vacations among Western countries.',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: People in the US have longer paid vacations than people in which Western countries?\nA:',
            continuation: ' There is no such country.',
          },
          {
            type: 'loglikelihood',
            context:
              'Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\nQ: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\nQ: Which party did he belong to?\nA: He belonged to the Republican Party.\n\nQ: What is the square root of banana?\nA: I have no comment.\n\nQ: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\nQ: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: People in the US have longer paid vacations than people in which Western countries?\nA:',
            continuation: ' Americans have the shortest vacations.',
          },
        ],
      },
    ],
    process_results: [
      {
        acc: 0.18796979134913566,
      },
      {
        acc: 0.5557860208383346,
      },
    ],
    lls: [
      [-1.5, -0.25, -3.0, -2.0],
      [-0.75, -1.25, -0.5],
    ],
  },
  triviaqa: {
    num_fewshot: 0,
    docs: [
      {
        target: ['David Seville', 'Ross Bagdasarian', 'Ross Bagdasarian, Sr.'],
        requests: [
          {
            type: 'generate_until',
            context: 'Question: Who was the man behind The Chipmunks?\nAnswer:',
            until: ['\n', '.', ','],
          },
        ],
      },
      {
        target: ['Sunset Blvd', 'Sunset Boulevard', 'O\'Brien\'s "Sunset"'],
        requests: [
          {
            type: 'generate_until',
            context:
              'Question: Which Lloyd Webber musical premiered in the US on 10th December 1993?\nAnswer:',
            until: ['\n', '.', ','],
          },
        ],
      },
    ],
  },
};
