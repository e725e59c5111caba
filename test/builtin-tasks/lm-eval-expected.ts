/**
 * What lm-eval itself builds for the fixture docs in fixtures.json: lm-eval's code at commit
 * 4e7e0d47f33bc71070c1d38394bafbb52b117163 (EleutherAI/lm-evaluation-harness), run locally with its heavy
 * imports stubbed (datasets → a list with `.map`, tqdm, sacrebleu, rouge_score) and
 * ConfigurableTask.download replaced by the fixture splits. For each task, its YAML was loaded with
 * lm_eval/tasks/_yaml_loader.py (`!function` resolved to the task's own utils.py), then
 * ConfigurableTask(config).set_fewshot_seed(1234) and build_all_requests(); recorded per doc:
 * doc_to_target(doc) and every Instance's arguments, in idx order. Sources, under lm_eval/tasks/:
 *   mmlu/default/_default_template_yaml + all 57 mmlu_<subject>.yaml (num_fewshot 5)
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
  mmlu_abstract_algebra: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about abstract algebra.\n\nabstract_algebra dev 0\nA. abstract_algebra 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nabstract_algebra dev 1\nA. abstract_algebra 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nabstract_algebra dev 2\nA. abstract_algebra 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nabstract_algebra dev 3\nA. abstract_algebra 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nabstract_algebra dev 4\nA. abstract_algebra 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich abstract algebra statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about abstract algebra.\n\nabstract_algebra dev 0\nA. abstract_algebra 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nabstract_algebra dev 1\nA. abstract_algebra 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nabstract_algebra dev 2\nA. abstract_algebra 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nabstract_algebra dev 3\nA. abstract_algebra 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nabstract_algebra dev 4\nA. abstract_algebra 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich abstract algebra statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about abstract algebra.\n\nabstract_algebra dev 0\nA. abstract_algebra 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nabstract_algebra dev 1\nA. abstract_algebra 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nabstract_algebra dev 2\nA. abstract_algebra 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nabstract_algebra dev 3\nA. abstract_algebra 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nabstract_algebra dev 4\nA. abstract_algebra 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich abstract algebra statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about abstract algebra.\n\nabstract_algebra dev 0\nA. abstract_algebra 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nabstract_algebra dev 1\nA. abstract_algebra 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nabstract_algebra dev 2\nA. abstract_algebra 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nabstract_algebra dev 3\nA. abstract_algebra 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nabstract_algebra dev 4\nA. abstract_algebra 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich abstract algebra statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
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
  mmlu_astronomy: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about astronomy.\n\nastronomy dev 0\nA. astronomy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nastronomy dev 1\nA. astronomy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nastronomy dev 2\nA. astronomy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nastronomy dev 3\nA. astronomy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nastronomy dev 4\nA. astronomy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich astronomy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about astronomy.\n\nastronomy dev 0\nA. astronomy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nastronomy dev 1\nA. astronomy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nastronomy dev 2\nA. astronomy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nastronomy dev 3\nA. astronomy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nastronomy dev 4\nA. astronomy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich astronomy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about astronomy.\n\nastronomy dev 0\nA. astronomy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nastronomy dev 1\nA. astronomy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nastronomy dev 2\nA. astronomy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nastronomy dev 3\nA. astronomy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nastronomy dev 4\nA. astronomy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich astronomy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about astronomy.\n\nastronomy dev 0\nA. astronomy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nastronomy dev 1\nA. astronomy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nastronomy dev 2\nA. astronomy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nastronomy dev 3\nA. astronomy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nastronomy dev 4\nA. astronomy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich astronomy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_business_ethics: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about business ethics.\n\nbusiness_ethics dev 0\nA. business_ethics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nbusiness_ethics dev 1\nA. business_ethics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nbusiness_ethics dev 2\nA. business_ethics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nbusiness_ethics dev 3\nA. business_ethics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nbusiness_ethics dev 4\nA. business_ethics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich business ethics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about business ethics.\n\nbusiness_ethics dev 0\nA. business_ethics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nbusiness_ethics dev 1\nA. business_ethics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nbusiness_ethics dev 2\nA. business_ethics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nbusiness_ethics dev 3\nA. business_ethics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nbusiness_ethics dev 4\nA. business_ethics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich business ethics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about business ethics.\n\nbusiness_ethics dev 0\nA. business_ethics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nbusiness_ethics dev 1\nA. business_ethics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nbusiness_ethics dev 2\nA. business_ethics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nbusiness_ethics dev 3\nA. business_ethics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nbusiness_ethics dev 4\nA. business_ethics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich business ethics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about business ethics.\n\nbusiness_ethics dev 0\nA. business_ethics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nbusiness_ethics dev 1\nA. business_ethics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nbusiness_ethics dev 2\nA. business_ethics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nbusiness_ethics dev 3\nA. business_ethics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nbusiness_ethics dev 4\nA. business_ethics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich business ethics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_clinical_knowledge: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about clinical knowledge.\n\nclinical_knowledge dev 0\nA. clinical_knowledge 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nclinical_knowledge dev 1\nA. clinical_knowledge 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nclinical_knowledge dev 2\nA. clinical_knowledge 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nclinical_knowledge dev 3\nA. clinical_knowledge 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nclinical_knowledge dev 4\nA. clinical_knowledge 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich clinical knowledge statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about clinical knowledge.\n\nclinical_knowledge dev 0\nA. clinical_knowledge 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nclinical_knowledge dev 1\nA. clinical_knowledge 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nclinical_knowledge dev 2\nA. clinical_knowledge 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nclinical_knowledge dev 3\nA. clinical_knowledge 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nclinical_knowledge dev 4\nA. clinical_knowledge 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich clinical knowledge statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about clinical knowledge.\n\nclinical_knowledge dev 0\nA. clinical_knowledge 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nclinical_knowledge dev 1\nA. clinical_knowledge 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nclinical_knowledge dev 2\nA. clinical_knowledge 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nclinical_knowledge dev 3\nA. clinical_knowledge 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nclinical_knowledge dev 4\nA. clinical_knowledge 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich clinical knowledge statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about clinical knowledge.\n\nclinical_knowledge dev 0\nA. clinical_knowledge 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nclinical_knowledge dev 1\nA. clinical_knowledge 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nclinical_knowledge dev 2\nA. clinical_knowledge 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nclinical_knowledge dev 3\nA. clinical_knowledge 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nclinical_knowledge dev 4\nA. clinical_knowledge 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich clinical knowledge statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_college_biology: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college biology.\n\ncollege_biology dev 0\nA. college_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_biology dev 1\nA. college_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_biology dev 2\nA. college_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_biology dev 3\nA. college_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_biology dev 4\nA. college_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college biology.\n\ncollege_biology dev 0\nA. college_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_biology dev 1\nA. college_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_biology dev 2\nA. college_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_biology dev 3\nA. college_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_biology dev 4\nA. college_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college biology.\n\ncollege_biology dev 0\nA. college_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_biology dev 1\nA. college_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_biology dev 2\nA. college_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_biology dev 3\nA. college_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_biology dev 4\nA. college_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college biology.\n\ncollege_biology dev 0\nA. college_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_biology dev 1\nA. college_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_biology dev 2\nA. college_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_biology dev 3\nA. college_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_biology dev 4\nA. college_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_college_chemistry: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college chemistry.\n\ncollege_chemistry dev 0\nA. college_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_chemistry dev 1\nA. college_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_chemistry dev 2\nA. college_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_chemistry dev 3\nA. college_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_chemistry dev 4\nA. college_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college chemistry.\n\ncollege_chemistry dev 0\nA. college_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_chemistry dev 1\nA. college_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_chemistry dev 2\nA. college_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_chemistry dev 3\nA. college_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_chemistry dev 4\nA. college_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college chemistry.\n\ncollege_chemistry dev 0\nA. college_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_chemistry dev 1\nA. college_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_chemistry dev 2\nA. college_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_chemistry dev 3\nA. college_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_chemistry dev 4\nA. college_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college chemistry.\n\ncollege_chemistry dev 0\nA. college_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_chemistry dev 1\nA. college_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_chemistry dev 2\nA. college_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_chemistry dev 3\nA. college_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_chemistry dev 4\nA. college_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_college_computer_science: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college computer science.\n\ncollege_computer_science dev 0\nA. college_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_computer_science dev 1\nA. college_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_computer_science dev 2\nA. college_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_computer_science dev 3\nA. college_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_computer_science dev 4\nA. college_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college computer science.\n\ncollege_computer_science dev 0\nA. college_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_computer_science dev 1\nA. college_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_computer_science dev 2\nA. college_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_computer_science dev 3\nA. college_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_computer_science dev 4\nA. college_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college computer science.\n\ncollege_computer_science dev 0\nA. college_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_computer_science dev 1\nA. college_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_computer_science dev 2\nA. college_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_computer_science dev 3\nA. college_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_computer_science dev 4\nA. college_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college computer science.\n\ncollege_computer_science dev 0\nA. college_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_computer_science dev 1\nA. college_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_computer_science dev 2\nA. college_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_computer_science dev 3\nA. college_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_computer_science dev 4\nA. college_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_college_mathematics: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college mathematics.\n\ncollege_mathematics dev 0\nA. college_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_mathematics dev 1\nA. college_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_mathematics dev 2\nA. college_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_mathematics dev 3\nA. college_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_mathematics dev 4\nA. college_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college mathematics.\n\ncollege_mathematics dev 0\nA. college_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_mathematics dev 1\nA. college_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_mathematics dev 2\nA. college_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_mathematics dev 3\nA. college_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_mathematics dev 4\nA. college_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college mathematics.\n\ncollege_mathematics dev 0\nA. college_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_mathematics dev 1\nA. college_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_mathematics dev 2\nA. college_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_mathematics dev 3\nA. college_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_mathematics dev 4\nA. college_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college mathematics.\n\ncollege_mathematics dev 0\nA. college_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_mathematics dev 1\nA. college_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_mathematics dev 2\nA. college_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_mathematics dev 3\nA. college_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_mathematics dev 4\nA. college_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_college_medicine: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college medicine.\n\ncollege_medicine dev 0\nA. college_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_medicine dev 1\nA. college_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_medicine dev 2\nA. college_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_medicine dev 3\nA. college_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_medicine dev 4\nA. college_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college medicine.\n\ncollege_medicine dev 0\nA. college_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_medicine dev 1\nA. college_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_medicine dev 2\nA. college_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_medicine dev 3\nA. college_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_medicine dev 4\nA. college_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college medicine.\n\ncollege_medicine dev 0\nA. college_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_medicine dev 1\nA. college_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_medicine dev 2\nA. college_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_medicine dev 3\nA. college_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_medicine dev 4\nA. college_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college medicine.\n\ncollege_medicine dev 0\nA. college_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_medicine dev 1\nA. college_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_medicine dev 2\nA. college_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_medicine dev 3\nA. college_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_medicine dev 4\nA. college_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_college_physics: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college physics.\n\ncollege_physics dev 0\nA. college_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_physics dev 1\nA. college_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_physics dev 2\nA. college_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_physics dev 3\nA. college_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_physics dev 4\nA. college_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college physics.\n\ncollege_physics dev 0\nA. college_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_physics dev 1\nA. college_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_physics dev 2\nA. college_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_physics dev 3\nA. college_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_physics dev 4\nA. college_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college physics.\n\ncollege_physics dev 0\nA. college_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_physics dev 1\nA. college_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_physics dev 2\nA. college_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_physics dev 3\nA. college_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_physics dev 4\nA. college_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about college physics.\n\ncollege_physics dev 0\nA. college_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncollege_physics dev 1\nA. college_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncollege_physics dev 2\nA. college_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncollege_physics dev 3\nA. college_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncollege_physics dev 4\nA. college_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich college physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_computer_security: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about computer security.\n\ncomputer_security dev 0\nA. computer_security 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncomputer_security dev 1\nA. computer_security 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncomputer_security dev 2\nA. computer_security 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncomputer_security dev 3\nA. computer_security 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncomputer_security dev 4\nA. computer_security 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich computer security statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about computer security.\n\ncomputer_security dev 0\nA. computer_security 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncomputer_security dev 1\nA. computer_security 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncomputer_security dev 2\nA. computer_security 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncomputer_security dev 3\nA. computer_security 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncomputer_security dev 4\nA. computer_security 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich computer security statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about computer security.\n\ncomputer_security dev 0\nA. computer_security 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncomputer_security dev 1\nA. computer_security 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncomputer_security dev 2\nA. computer_security 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncomputer_security dev 3\nA. computer_security 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncomputer_security dev 4\nA. computer_security 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich computer security statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about computer security.\n\ncomputer_security dev 0\nA. computer_security 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ncomputer_security dev 1\nA. computer_security 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ncomputer_security dev 2\nA. computer_security 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ncomputer_security dev 3\nA. computer_security 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ncomputer_security dev 4\nA. computer_security 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich computer security statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_conceptual_physics: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about conceptual physics.\n\nconceptual_physics dev 0\nA. conceptual_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nconceptual_physics dev 1\nA. conceptual_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nconceptual_physics dev 2\nA. conceptual_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nconceptual_physics dev 3\nA. conceptual_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nconceptual_physics dev 4\nA. conceptual_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich conceptual physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about conceptual physics.\n\nconceptual_physics dev 0\nA. conceptual_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nconceptual_physics dev 1\nA. conceptual_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nconceptual_physics dev 2\nA. conceptual_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nconceptual_physics dev 3\nA. conceptual_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nconceptual_physics dev 4\nA. conceptual_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich conceptual physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about conceptual physics.\n\nconceptual_physics dev 0\nA. conceptual_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nconceptual_physics dev 1\nA. conceptual_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nconceptual_physics dev 2\nA. conceptual_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nconceptual_physics dev 3\nA. conceptual_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nconceptual_physics dev 4\nA. conceptual_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich conceptual physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about conceptual physics.\n\nconceptual_physics dev 0\nA. conceptual_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nconceptual_physics dev 1\nA. conceptual_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nconceptual_physics dev 2\nA. conceptual_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nconceptual_physics dev 3\nA. conceptual_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nconceptual_physics dev 4\nA. conceptual_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich conceptual physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_econometrics: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about econometrics.\n\neconometrics dev 0\nA. econometrics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\neconometrics dev 1\nA. econometrics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\neconometrics dev 2\nA. econometrics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\neconometrics dev 3\nA. econometrics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\neconometrics dev 4\nA. econometrics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich econometrics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about econometrics.\n\neconometrics dev 0\nA. econometrics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\neconometrics dev 1\nA. econometrics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\neconometrics dev 2\nA. econometrics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\neconometrics dev 3\nA. econometrics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\neconometrics dev 4\nA. econometrics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich econometrics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about econometrics.\n\neconometrics dev 0\nA. econometrics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\neconometrics dev 1\nA. econometrics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\neconometrics dev 2\nA. econometrics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\neconometrics dev 3\nA. econometrics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\neconometrics dev 4\nA. econometrics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich econometrics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about econometrics.\n\neconometrics dev 0\nA. econometrics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\neconometrics dev 1\nA. econometrics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\neconometrics dev 2\nA. econometrics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\neconometrics dev 3\nA. econometrics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\neconometrics dev 4\nA. econometrics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich econometrics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_electrical_engineering: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about electrical engineering.\n\nelectrical_engineering dev 0\nA. electrical_engineering 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelectrical_engineering dev 1\nA. electrical_engineering 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelectrical_engineering dev 2\nA. electrical_engineering 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelectrical_engineering dev 3\nA. electrical_engineering 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelectrical_engineering dev 4\nA. electrical_engineering 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich electrical engineering statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about electrical engineering.\n\nelectrical_engineering dev 0\nA. electrical_engineering 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelectrical_engineering dev 1\nA. electrical_engineering 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelectrical_engineering dev 2\nA. electrical_engineering 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelectrical_engineering dev 3\nA. electrical_engineering 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelectrical_engineering dev 4\nA. electrical_engineering 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich electrical engineering statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about electrical engineering.\n\nelectrical_engineering dev 0\nA. electrical_engineering 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelectrical_engineering dev 1\nA. electrical_engineering 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelectrical_engineering dev 2\nA. electrical_engineering 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelectrical_engineering dev 3\nA. electrical_engineering 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelectrical_engineering dev 4\nA. electrical_engineering 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich electrical engineering statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about electrical engineering.\n\nelectrical_engineering dev 0\nA. electrical_engineering 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelectrical_engineering dev 1\nA. electrical_engineering 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelectrical_engineering dev 2\nA. electrical_engineering 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelectrical_engineering dev 3\nA. electrical_engineering 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelectrical_engineering dev 4\nA. electrical_engineering 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich electrical engineering statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_elementary_mathematics: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about elementary mathematics.\n\nelementary_mathematics dev 0\nA. elementary_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelementary_mathematics dev 1\nA. elementary_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelementary_mathematics dev 2\nA. elementary_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelementary_mathematics dev 3\nA. elementary_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelementary_mathematics dev 4\nA. elementary_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich elementary mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about elementary mathematics.\n\nelementary_mathematics dev 0\nA. elementary_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelementary_mathematics dev 1\nA. elementary_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelementary_mathematics dev 2\nA. elementary_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelementary_mathematics dev 3\nA. elementary_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelementary_mathematics dev 4\nA. elementary_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich elementary mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about elementary mathematics.\n\nelementary_mathematics dev 0\nA. elementary_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelementary_mathematics dev 1\nA. elementary_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelementary_mathematics dev 2\nA. elementary_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelementary_mathematics dev 3\nA. elementary_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelementary_mathematics dev 4\nA. elementary_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich elementary mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about elementary mathematics.\n\nelementary_mathematics dev 0\nA. elementary_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nelementary_mathematics dev 1\nA. elementary_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nelementary_mathematics dev 2\nA. elementary_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nelementary_mathematics dev 3\nA. elementary_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nelementary_mathematics dev 4\nA. elementary_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich elementary mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_formal_logic: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about formal logic.\n\nformal_logic dev 0\nA. formal_logic 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nformal_logic dev 1\nA. formal_logic 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nformal_logic dev 2\nA. formal_logic 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nformal_logic dev 3\nA. formal_logic 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nformal_logic dev 4\nA. formal_logic 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich formal logic statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about formal logic.\n\nformal_logic dev 0\nA. formal_logic 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nformal_logic dev 1\nA. formal_logic 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nformal_logic dev 2\nA. formal_logic 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nformal_logic dev 3\nA. formal_logic 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nformal_logic dev 4\nA. formal_logic 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich formal logic statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about formal logic.\n\nformal_logic dev 0\nA. formal_logic 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nformal_logic dev 1\nA. formal_logic 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nformal_logic dev 2\nA. formal_logic 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nformal_logic dev 3\nA. formal_logic 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nformal_logic dev 4\nA. formal_logic 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich formal logic statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about formal logic.\n\nformal_logic dev 0\nA. formal_logic 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nformal_logic dev 1\nA. formal_logic 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nformal_logic dev 2\nA. formal_logic 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nformal_logic dev 3\nA. formal_logic 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nformal_logic dev 4\nA. formal_logic 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich formal logic statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_global_facts: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about global facts.\n\nglobal_facts dev 0\nA. global_facts 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nglobal_facts dev 1\nA. global_facts 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nglobal_facts dev 2\nA. global_facts 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nglobal_facts dev 3\nA. global_facts 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nglobal_facts dev 4\nA. global_facts 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich global facts statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about global facts.\n\nglobal_facts dev 0\nA. global_facts 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nglobal_facts dev 1\nA. global_facts 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nglobal_facts dev 2\nA. global_facts 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nglobal_facts dev 3\nA. global_facts 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nglobal_facts dev 4\nA. global_facts 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich global facts statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about global facts.\n\nglobal_facts dev 0\nA. global_facts 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nglobal_facts dev 1\nA. global_facts 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nglobal_facts dev 2\nA. global_facts 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nglobal_facts dev 3\nA. global_facts 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nglobal_facts dev 4\nA. global_facts 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich global facts statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about global facts.\n\nglobal_facts dev 0\nA. global_facts 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nglobal_facts dev 1\nA. global_facts 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nglobal_facts dev 2\nA. global_facts 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nglobal_facts dev 3\nA. global_facts 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nglobal_facts dev 4\nA. global_facts 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich global facts statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_biology: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school biology.\n\nhigh_school_biology dev 0\nA. high_school_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_biology dev 1\nA. high_school_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_biology dev 2\nA. high_school_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_biology dev 3\nA. high_school_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_biology dev 4\nA. high_school_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school biology.\n\nhigh_school_biology dev 0\nA. high_school_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_biology dev 1\nA. high_school_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_biology dev 2\nA. high_school_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_biology dev 3\nA. high_school_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_biology dev 4\nA. high_school_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school biology.\n\nhigh_school_biology dev 0\nA. high_school_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_biology dev 1\nA. high_school_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_biology dev 2\nA. high_school_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_biology dev 3\nA. high_school_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_biology dev 4\nA. high_school_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school biology.\n\nhigh_school_biology dev 0\nA. high_school_biology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_biology dev 1\nA. high_school_biology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_biology dev 2\nA. high_school_biology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_biology dev 3\nA. high_school_biology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_biology dev 4\nA. high_school_biology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school biology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_chemistry: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school chemistry.\n\nhigh_school_chemistry dev 0\nA. high_school_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_chemistry dev 1\nA. high_school_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_chemistry dev 2\nA. high_school_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_chemistry dev 3\nA. high_school_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_chemistry dev 4\nA. high_school_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school chemistry.\n\nhigh_school_chemistry dev 0\nA. high_school_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_chemistry dev 1\nA. high_school_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_chemistry dev 2\nA. high_school_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_chemistry dev 3\nA. high_school_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_chemistry dev 4\nA. high_school_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school chemistry.\n\nhigh_school_chemistry dev 0\nA. high_school_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_chemistry dev 1\nA. high_school_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_chemistry dev 2\nA. high_school_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_chemistry dev 3\nA. high_school_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_chemistry dev 4\nA. high_school_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school chemistry.\n\nhigh_school_chemistry dev 0\nA. high_school_chemistry 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_chemistry dev 1\nA. high_school_chemistry 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_chemistry dev 2\nA. high_school_chemistry 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_chemistry dev 3\nA. high_school_chemistry 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_chemistry dev 4\nA. high_school_chemistry 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school chemistry statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_computer_science: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school computer science.\n\nhigh_school_computer_science dev 0\nA. high_school_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_computer_science dev 1\nA. high_school_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_computer_science dev 2\nA. high_school_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_computer_science dev 3\nA. high_school_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_computer_science dev 4\nA. high_school_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school computer science.\n\nhigh_school_computer_science dev 0\nA. high_school_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_computer_science dev 1\nA. high_school_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_computer_science dev 2\nA. high_school_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_computer_science dev 3\nA. high_school_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_computer_science dev 4\nA. high_school_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school computer science.\n\nhigh_school_computer_science dev 0\nA. high_school_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_computer_science dev 1\nA. high_school_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_computer_science dev 2\nA. high_school_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_computer_science dev 3\nA. high_school_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_computer_science dev 4\nA. high_school_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school computer science.\n\nhigh_school_computer_science dev 0\nA. high_school_computer_science 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_computer_science dev 1\nA. high_school_computer_science 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_computer_science dev 2\nA. high_school_computer_science 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_computer_science dev 3\nA. high_school_computer_science 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_computer_science dev 4\nA. high_school_computer_science 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school computer science statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_european_history: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school european history.\n\nhigh_school_european_history dev 0\nA. high_school_european_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_european_history dev 1\nA. high_school_european_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_european_history dev 2\nA. high_school_european_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_european_history dev 3\nA. high_school_european_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_european_history dev 4\nA. high_school_european_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school european history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school european history.\n\nhigh_school_european_history dev 0\nA. high_school_european_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_european_history dev 1\nA. high_school_european_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_european_history dev 2\nA. high_school_european_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_european_history dev 3\nA. high_school_european_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_european_history dev 4\nA. high_school_european_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school european history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school european history.\n\nhigh_school_european_history dev 0\nA. high_school_european_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_european_history dev 1\nA. high_school_european_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_european_history dev 2\nA. high_school_european_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_european_history dev 3\nA. high_school_european_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_european_history dev 4\nA. high_school_european_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school european history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school european history.\n\nhigh_school_european_history dev 0\nA. high_school_european_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_european_history dev 1\nA. high_school_european_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_european_history dev 2\nA. high_school_european_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_european_history dev 3\nA. high_school_european_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_european_history dev 4\nA. high_school_european_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school european history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_geography: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school geography.\n\nhigh_school_geography dev 0\nA. high_school_geography 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_geography dev 1\nA. high_school_geography 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_geography dev 2\nA. high_school_geography 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_geography dev 3\nA. high_school_geography 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_geography dev 4\nA. high_school_geography 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school geography statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school geography.\n\nhigh_school_geography dev 0\nA. high_school_geography 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_geography dev 1\nA. high_school_geography 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_geography dev 2\nA. high_school_geography 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_geography dev 3\nA. high_school_geography 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_geography dev 4\nA. high_school_geography 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school geography statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school geography.\n\nhigh_school_geography dev 0\nA. high_school_geography 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_geography dev 1\nA. high_school_geography 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_geography dev 2\nA. high_school_geography 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_geography dev 3\nA. high_school_geography 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_geography dev 4\nA. high_school_geography 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school geography statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school geography.\n\nhigh_school_geography dev 0\nA. high_school_geography 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_geography dev 1\nA. high_school_geography 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_geography dev 2\nA. high_school_geography 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_geography dev 3\nA. high_school_geography 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_geography dev 4\nA. high_school_geography 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school geography statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_government_and_politics: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school government and politics.\n\nhigh_school_government_and_politics dev 0\nA. high_school_government_and_politics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_government_and_politics dev 1\nA. high_school_government_and_politics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_government_and_politics dev 2\nA. high_school_government_and_politics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_government_and_politics dev 3\nA. high_school_government_and_politics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_government_and_politics dev 4\nA. high_school_government_and_politics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school government and politics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school government and politics.\n\nhigh_school_government_and_politics dev 0\nA. high_school_government_and_politics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_government_and_politics dev 1\nA. high_school_government_and_politics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_government_and_politics dev 2\nA. high_school_government_and_politics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_government_and_politics dev 3\nA. high_school_government_and_politics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_government_and_politics dev 4\nA. high_school_government_and_politics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school government and politics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school government and politics.\n\nhigh_school_government_and_politics dev 0\nA. high_school_government_and_politics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_government_and_politics dev 1\nA. high_school_government_and_politics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_government_and_politics dev 2\nA. high_school_government_and_politics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_government_and_politics dev 3\nA. high_school_government_and_politics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_government_and_politics dev 4\nA. high_school_government_and_politics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school government and politics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school government and politics.\n\nhigh_school_government_and_politics dev 0\nA. high_school_government_and_politics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_government_and_politics dev 1\nA. high_school_government_and_politics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_government_and_politics dev 2\nA. high_school_government_and_politics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_government_and_politics dev 3\nA. high_school_government_and_politics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_government_and_politics dev 4\nA. high_school_government_and_politics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school government and politics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_macroeconomics: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school macroeconomics.\n\nhigh_school_macroeconomics dev 0\nA. high_school_macroeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_macroeconomics dev 1\nA. high_school_macroeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_macroeconomics dev 2\nA. high_school_macroeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_macroeconomics dev 3\nA. high_school_macroeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_macroeconomics dev 4\nA. high_school_macroeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school macroeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school macroeconomics.\n\nhigh_school_macroeconomics dev 0\nA. high_school_macroeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_macroeconomics dev 1\nA. high_school_macroeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_macroeconomics dev 2\nA. high_school_macroeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_macroeconomics dev 3\nA. high_school_macroeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_macroeconomics dev 4\nA. high_school_macroeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school macroeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school macroeconomics.\n\nhigh_school_macroeconomics dev 0\nA. high_school_macroeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_macroeconomics dev 1\nA. high_school_macroeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_macroeconomics dev 2\nA. high_school_macroeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_macroeconomics dev 3\nA. high_school_macroeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_macroeconomics dev 4\nA. high_school_macroeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school macroeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school macroeconomics.\n\nhigh_school_macroeconomics dev 0\nA. high_school_macroeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_macroeconomics dev 1\nA. high_school_macroeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_macroeconomics dev 2\nA. high_school_macroeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_macroeconomics dev 3\nA. high_school_macroeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_macroeconomics dev 4\nA. high_school_macroeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school macroeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_mathematics: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school mathematics.\n\nhigh_school_mathematics dev 0\nA. high_school_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_mathematics dev 1\nA. high_school_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_mathematics dev 2\nA. high_school_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_mathematics dev 3\nA. high_school_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_mathematics dev 4\nA. high_school_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school mathematics.\n\nhigh_school_mathematics dev 0\nA. high_school_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_mathematics dev 1\nA. high_school_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_mathematics dev 2\nA. high_school_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_mathematics dev 3\nA. high_school_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_mathematics dev 4\nA. high_school_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school mathematics.\n\nhigh_school_mathematics dev 0\nA. high_school_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_mathematics dev 1\nA. high_school_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_mathematics dev 2\nA. high_school_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_mathematics dev 3\nA. high_school_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_mathematics dev 4\nA. high_school_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school mathematics.\n\nhigh_school_mathematics dev 0\nA. high_school_mathematics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_mathematics dev 1\nA. high_school_mathematics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_mathematics dev 2\nA. high_school_mathematics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_mathematics dev 3\nA. high_school_mathematics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_mathematics dev 4\nA. high_school_mathematics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school mathematics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_microeconomics: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school microeconomics.\n\nhigh_school_microeconomics dev 0\nA. high_school_microeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_microeconomics dev 1\nA. high_school_microeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_microeconomics dev 2\nA. high_school_microeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_microeconomics dev 3\nA. high_school_microeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_microeconomics dev 4\nA. high_school_microeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school microeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school microeconomics.\n\nhigh_school_microeconomics dev 0\nA. high_school_microeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_microeconomics dev 1\nA. high_school_microeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_microeconomics dev 2\nA. high_school_microeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_microeconomics dev 3\nA. high_school_microeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_microeconomics dev 4\nA. high_school_microeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school microeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school microeconomics.\n\nhigh_school_microeconomics dev 0\nA. high_school_microeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_microeconomics dev 1\nA. high_school_microeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_microeconomics dev 2\nA. high_school_microeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_microeconomics dev 3\nA. high_school_microeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_microeconomics dev 4\nA. high_school_microeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school microeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school microeconomics.\n\nhigh_school_microeconomics dev 0\nA. high_school_microeconomics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_microeconomics dev 1\nA. high_school_microeconomics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_microeconomics dev 2\nA. high_school_microeconomics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_microeconomics dev 3\nA. high_school_microeconomics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_microeconomics dev 4\nA. high_school_microeconomics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school microeconomics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_physics: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school physics.\n\nhigh_school_physics dev 0\nA. high_school_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_physics dev 1\nA. high_school_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_physics dev 2\nA. high_school_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_physics dev 3\nA. high_school_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_physics dev 4\nA. high_school_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school physics.\n\nhigh_school_physics dev 0\nA. high_school_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_physics dev 1\nA. high_school_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_physics dev 2\nA. high_school_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_physics dev 3\nA. high_school_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_physics dev 4\nA. high_school_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school physics.\n\nhigh_school_physics dev 0\nA. high_school_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_physics dev 1\nA. high_school_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_physics dev 2\nA. high_school_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_physics dev 3\nA. high_school_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_physics dev 4\nA. high_school_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school physics.\n\nhigh_school_physics dev 0\nA. high_school_physics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_physics dev 1\nA. high_school_physics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_physics dev 2\nA. high_school_physics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_physics dev 3\nA. high_school_physics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_physics dev 4\nA. high_school_physics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school physics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_psychology: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school psychology.\n\nhigh_school_psychology dev 0\nA. high_school_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_psychology dev 1\nA. high_school_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_psychology dev 2\nA. high_school_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_psychology dev 3\nA. high_school_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_psychology dev 4\nA. high_school_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school psychology.\n\nhigh_school_psychology dev 0\nA. high_school_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_psychology dev 1\nA. high_school_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_psychology dev 2\nA. high_school_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_psychology dev 3\nA. high_school_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_psychology dev 4\nA. high_school_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school psychology.\n\nhigh_school_psychology dev 0\nA. high_school_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_psychology dev 1\nA. high_school_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_psychology dev 2\nA. high_school_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_psychology dev 3\nA. high_school_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_psychology dev 4\nA. high_school_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school psychology.\n\nhigh_school_psychology dev 0\nA. high_school_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_psychology dev 1\nA. high_school_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_psychology dev 2\nA. high_school_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_psychology dev 3\nA. high_school_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_psychology dev 4\nA. high_school_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_high_school_statistics: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school statistics.\n\nhigh_school_statistics dev 0\nA. high_school_statistics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_statistics dev 1\nA. high_school_statistics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_statistics dev 2\nA. high_school_statistics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_statistics dev 3\nA. high_school_statistics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_statistics dev 4\nA. high_school_statistics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school statistics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school statistics.\n\nhigh_school_statistics dev 0\nA. high_school_statistics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_statistics dev 1\nA. high_school_statistics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_statistics dev 2\nA. high_school_statistics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_statistics dev 3\nA. high_school_statistics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_statistics dev 4\nA. high_school_statistics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school statistics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school statistics.\n\nhigh_school_statistics dev 0\nA. high_school_statistics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_statistics dev 1\nA. high_school_statistics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_statistics dev 2\nA. high_school_statistics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_statistics dev 3\nA. high_school_statistics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_statistics dev 4\nA. high_school_statistics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school statistics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school statistics.\n\nhigh_school_statistics dev 0\nA. high_school_statistics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_statistics dev 1\nA. high_school_statistics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_statistics dev 2\nA. high_school_statistics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_statistics dev 3\nA. high_school_statistics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_statistics dev 4\nA. high_school_statistics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school statistics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
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
  mmlu_high_school_world_history: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school world history.\n\nhigh_school_world_history dev 0\nA. high_school_world_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_world_history dev 1\nA. high_school_world_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_world_history dev 2\nA. high_school_world_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_world_history dev 3\nA. high_school_world_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_world_history dev 4\nA. high_school_world_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school world history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school world history.\n\nhigh_school_world_history dev 0\nA. high_school_world_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_world_history dev 1\nA. high_school_world_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_world_history dev 2\nA. high_school_world_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_world_history dev 3\nA. high_school_world_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_world_history dev 4\nA. high_school_world_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school world history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school world history.\n\nhigh_school_world_history dev 0\nA. high_school_world_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_world_history dev 1\nA. high_school_world_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_world_history dev 2\nA. high_school_world_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_world_history dev 3\nA. high_school_world_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_world_history dev 4\nA. high_school_world_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school world history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about high school world history.\n\nhigh_school_world_history dev 0\nA. high_school_world_history 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhigh_school_world_history dev 1\nA. high_school_world_history 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhigh_school_world_history dev 2\nA. high_school_world_history 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhigh_school_world_history dev 3\nA. high_school_world_history 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhigh_school_world_history dev 4\nA. high_school_world_history 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich high school world history statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_human_aging: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human aging.\n\nhuman_aging dev 0\nA. human_aging 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_aging dev 1\nA. human_aging 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_aging dev 2\nA. human_aging 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_aging dev 3\nA. human_aging 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_aging dev 4\nA. human_aging 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human aging statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human aging.\n\nhuman_aging dev 0\nA. human_aging 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_aging dev 1\nA. human_aging 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_aging dev 2\nA. human_aging 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_aging dev 3\nA. human_aging 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_aging dev 4\nA. human_aging 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human aging statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human aging.\n\nhuman_aging dev 0\nA. human_aging 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_aging dev 1\nA. human_aging 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_aging dev 2\nA. human_aging 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_aging dev 3\nA. human_aging 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_aging dev 4\nA. human_aging 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human aging statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human aging.\n\nhuman_aging dev 0\nA. human_aging 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_aging dev 1\nA. human_aging 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_aging dev 2\nA. human_aging 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_aging dev 3\nA. human_aging 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_aging dev 4\nA. human_aging 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human aging statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_human_sexuality: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human sexuality.\n\nhuman_sexuality dev 0\nA. human_sexuality 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_sexuality dev 1\nA. human_sexuality 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_sexuality dev 2\nA. human_sexuality 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_sexuality dev 3\nA. human_sexuality 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_sexuality dev 4\nA. human_sexuality 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human sexuality statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human sexuality.\n\nhuman_sexuality dev 0\nA. human_sexuality 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_sexuality dev 1\nA. human_sexuality 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_sexuality dev 2\nA. human_sexuality 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_sexuality dev 3\nA. human_sexuality 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_sexuality dev 4\nA. human_sexuality 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human sexuality statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human sexuality.\n\nhuman_sexuality dev 0\nA. human_sexuality 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_sexuality dev 1\nA. human_sexuality 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_sexuality dev 2\nA. human_sexuality 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_sexuality dev 3\nA. human_sexuality 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_sexuality dev 4\nA. human_sexuality 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human sexuality statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about human sexuality.\n\nhuman_sexuality dev 0\nA. human_sexuality 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nhuman_sexuality dev 1\nA. human_sexuality 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nhuman_sexuality dev 2\nA. human_sexuality 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nhuman_sexuality dev 3\nA. human_sexuality 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nhuman_sexuality dev 4\nA. human_sexuality 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich human sexuality statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_international_law: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about international law.\n\ninternational_law dev 0\nA. international_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ninternational_law dev 1\nA. international_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ninternational_law dev 2\nA. international_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ninternational_law dev 3\nA. international_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ninternational_law dev 4\nA. international_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich international law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about international law.\n\ninternational_law dev 0\nA. international_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ninternational_law dev 1\nA. international_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ninternational_law dev 2\nA. international_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ninternational_law dev 3\nA. international_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ninternational_law dev 4\nA. international_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich international law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about international law.\n\ninternational_law dev 0\nA. international_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ninternational_law dev 1\nA. international_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ninternational_law dev 2\nA. international_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ninternational_law dev 3\nA. international_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ninternational_law dev 4\nA. international_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich international law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about international law.\n\ninternational_law dev 0\nA. international_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\ninternational_law dev 1\nA. international_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\ninternational_law dev 2\nA. international_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\ninternational_law dev 3\nA. international_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\ninternational_law dev 4\nA. international_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich international law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_jurisprudence: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about jurisprudence.\n\njurisprudence dev 0\nA. jurisprudence 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\njurisprudence dev 1\nA. jurisprudence 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\njurisprudence dev 2\nA. jurisprudence 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\njurisprudence dev 3\nA. jurisprudence 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\njurisprudence dev 4\nA. jurisprudence 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich jurisprudence statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about jurisprudence.\n\njurisprudence dev 0\nA. jurisprudence 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\njurisprudence dev 1\nA. jurisprudence 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\njurisprudence dev 2\nA. jurisprudence 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\njurisprudence dev 3\nA. jurisprudence 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\njurisprudence dev 4\nA. jurisprudence 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich jurisprudence statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about jurisprudence.\n\njurisprudence dev 0\nA. jurisprudence 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\njurisprudence dev 1\nA. jurisprudence 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\njurisprudence dev 2\nA. jurisprudence 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\njurisprudence dev 3\nA. jurisprudence 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\njurisprudence dev 4\nA. jurisprudence 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich jurisprudence statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about jurisprudence.\n\njurisprudence dev 0\nA. jurisprudence 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\njurisprudence dev 1\nA. jurisprudence 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\njurisprudence dev 2\nA. jurisprudence 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\njurisprudence dev 3\nA. jurisprudence 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\njurisprudence dev 4\nA. jurisprudence 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich jurisprudence statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_logical_fallacies: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about logical fallacies.\n\nlogical_fallacies dev 0\nA. logical_fallacies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nlogical_fallacies dev 1\nA. logical_fallacies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nlogical_fallacies dev 2\nA. logical_fallacies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nlogical_fallacies dev 3\nA. logical_fallacies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nlogical_fallacies dev 4\nA. logical_fallacies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich logical fallacies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about logical fallacies.\n\nlogical_fallacies dev 0\nA. logical_fallacies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nlogical_fallacies dev 1\nA. logical_fallacies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nlogical_fallacies dev 2\nA. logical_fallacies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nlogical_fallacies dev 3\nA. logical_fallacies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nlogical_fallacies dev 4\nA. logical_fallacies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich logical fallacies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about logical fallacies.\n\nlogical_fallacies dev 0\nA. logical_fallacies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nlogical_fallacies dev 1\nA. logical_fallacies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nlogical_fallacies dev 2\nA. logical_fallacies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nlogical_fallacies dev 3\nA. logical_fallacies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nlogical_fallacies dev 4\nA. logical_fallacies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich logical fallacies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about logical fallacies.\n\nlogical_fallacies dev 0\nA. logical_fallacies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nlogical_fallacies dev 1\nA. logical_fallacies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nlogical_fallacies dev 2\nA. logical_fallacies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nlogical_fallacies dev 3\nA. logical_fallacies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nlogical_fallacies dev 4\nA. logical_fallacies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich logical fallacies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_machine_learning: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about machine learning.\n\nmachine_learning dev 0\nA. machine_learning 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmachine_learning dev 1\nA. machine_learning 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmachine_learning dev 2\nA. machine_learning 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmachine_learning dev 3\nA. machine_learning 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmachine_learning dev 4\nA. machine_learning 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich machine learning statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about machine learning.\n\nmachine_learning dev 0\nA. machine_learning 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmachine_learning dev 1\nA. machine_learning 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmachine_learning dev 2\nA. machine_learning 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmachine_learning dev 3\nA. machine_learning 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmachine_learning dev 4\nA. machine_learning 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich machine learning statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about machine learning.\n\nmachine_learning dev 0\nA. machine_learning 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmachine_learning dev 1\nA. machine_learning 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmachine_learning dev 2\nA. machine_learning 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmachine_learning dev 3\nA. machine_learning 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmachine_learning dev 4\nA. machine_learning 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich machine learning statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about machine learning.\n\nmachine_learning dev 0\nA. machine_learning 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmachine_learning dev 1\nA. machine_learning 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmachine_learning dev 2\nA. machine_learning 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmachine_learning dev 3\nA. machine_learning 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmachine_learning dev 4\nA. machine_learning 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich machine learning statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_management: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about management.\n\nmanagement dev 0\nA. management 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmanagement dev 1\nA. management 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmanagement dev 2\nA. management 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmanagement dev 3\nA. management 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmanagement dev 4\nA. management 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich management statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about management.\n\nmanagement dev 0\nA. management 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmanagement dev 1\nA. management 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmanagement dev 2\nA. management 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmanagement dev 3\nA. management 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmanagement dev 4\nA. management 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich management statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about management.\n\nmanagement dev 0\nA. management 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmanagement dev 1\nA. management 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmanagement dev 2\nA. management 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmanagement dev 3\nA. management 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmanagement dev 4\nA. management 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich management statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about management.\n\nmanagement dev 0\nA. management 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmanagement dev 1\nA. management 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmanagement dev 2\nA. management 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmanagement dev 3\nA. management 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmanagement dev 4\nA. management 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich management statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_marketing: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about marketing.\n\nmarketing dev 0\nA. marketing 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmarketing dev 1\nA. marketing 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmarketing dev 2\nA. marketing 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmarketing dev 3\nA. marketing 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmarketing dev 4\nA. marketing 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich marketing statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about marketing.\n\nmarketing dev 0\nA. marketing 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmarketing dev 1\nA. marketing 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmarketing dev 2\nA. marketing 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmarketing dev 3\nA. marketing 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmarketing dev 4\nA. marketing 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich marketing statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about marketing.\n\nmarketing dev 0\nA. marketing 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmarketing dev 1\nA. marketing 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmarketing dev 2\nA. marketing 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmarketing dev 3\nA. marketing 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmarketing dev 4\nA. marketing 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich marketing statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about marketing.\n\nmarketing dev 0\nA. marketing 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmarketing dev 1\nA. marketing 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmarketing dev 2\nA. marketing 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmarketing dev 3\nA. marketing 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmarketing dev 4\nA. marketing 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich marketing statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_medical_genetics: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about medical genetics.\n\nmedical_genetics dev 0\nA. medical_genetics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmedical_genetics dev 1\nA. medical_genetics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmedical_genetics dev 2\nA. medical_genetics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmedical_genetics dev 3\nA. medical_genetics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmedical_genetics dev 4\nA. medical_genetics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich medical genetics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about medical genetics.\n\nmedical_genetics dev 0\nA. medical_genetics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmedical_genetics dev 1\nA. medical_genetics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmedical_genetics dev 2\nA. medical_genetics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmedical_genetics dev 3\nA. medical_genetics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmedical_genetics dev 4\nA. medical_genetics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich medical genetics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about medical genetics.\n\nmedical_genetics dev 0\nA. medical_genetics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmedical_genetics dev 1\nA. medical_genetics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmedical_genetics dev 2\nA. medical_genetics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmedical_genetics dev 3\nA. medical_genetics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmedical_genetics dev 4\nA. medical_genetics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich medical genetics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about medical genetics.\n\nmedical_genetics dev 0\nA. medical_genetics 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmedical_genetics dev 1\nA. medical_genetics 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmedical_genetics dev 2\nA. medical_genetics 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmedical_genetics dev 3\nA. medical_genetics 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmedical_genetics dev 4\nA. medical_genetics 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich medical genetics statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_miscellaneous: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about miscellaneous.\n\nmiscellaneous dev 0\nA. miscellaneous 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmiscellaneous dev 1\nA. miscellaneous 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmiscellaneous dev 2\nA. miscellaneous 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmiscellaneous dev 3\nA. miscellaneous 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmiscellaneous dev 4\nA. miscellaneous 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich miscellaneous statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about miscellaneous.\n\nmiscellaneous dev 0\nA. miscellaneous 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmiscellaneous dev 1\nA. miscellaneous 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmiscellaneous dev 2\nA. miscellaneous 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmiscellaneous dev 3\nA. miscellaneous 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmiscellaneous dev 4\nA. miscellaneous 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich miscellaneous statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about miscellaneous.\n\nmiscellaneous dev 0\nA. miscellaneous 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmiscellaneous dev 1\nA. miscellaneous 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmiscellaneous dev 2\nA. miscellaneous 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmiscellaneous dev 3\nA. miscellaneous 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmiscellaneous dev 4\nA. miscellaneous 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich miscellaneous statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about miscellaneous.\n\nmiscellaneous dev 0\nA. miscellaneous 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmiscellaneous dev 1\nA. miscellaneous 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmiscellaneous dev 2\nA. miscellaneous 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmiscellaneous dev 3\nA. miscellaneous 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmiscellaneous dev 4\nA. miscellaneous 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich miscellaneous statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_moral_disputes: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral disputes.\n\nmoral_disputes dev 0\nA. moral_disputes 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_disputes dev 1\nA. moral_disputes 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_disputes dev 2\nA. moral_disputes 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_disputes dev 3\nA. moral_disputes 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_disputes dev 4\nA. moral_disputes 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral disputes statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral disputes.\n\nmoral_disputes dev 0\nA. moral_disputes 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_disputes dev 1\nA. moral_disputes 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_disputes dev 2\nA. moral_disputes 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_disputes dev 3\nA. moral_disputes 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_disputes dev 4\nA. moral_disputes 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral disputes statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral disputes.\n\nmoral_disputes dev 0\nA. moral_disputes 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_disputes dev 1\nA. moral_disputes 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_disputes dev 2\nA. moral_disputes 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_disputes dev 3\nA. moral_disputes 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_disputes dev 4\nA. moral_disputes 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral disputes statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral disputes.\n\nmoral_disputes dev 0\nA. moral_disputes 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_disputes dev 1\nA. moral_disputes 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_disputes dev 2\nA. moral_disputes 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_disputes dev 3\nA. moral_disputes 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_disputes dev 4\nA. moral_disputes 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral disputes statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_moral_scenarios: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral scenarios.\n\nmoral_scenarios dev 0\nA. moral_scenarios 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_scenarios dev 1\nA. moral_scenarios 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_scenarios dev 2\nA. moral_scenarios 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_scenarios dev 3\nA. moral_scenarios 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_scenarios dev 4\nA. moral_scenarios 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral scenarios statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral scenarios.\n\nmoral_scenarios dev 0\nA. moral_scenarios 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_scenarios dev 1\nA. moral_scenarios 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_scenarios dev 2\nA. moral_scenarios 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_scenarios dev 3\nA. moral_scenarios 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_scenarios dev 4\nA. moral_scenarios 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral scenarios statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral scenarios.\n\nmoral_scenarios dev 0\nA. moral_scenarios 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_scenarios dev 1\nA. moral_scenarios 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_scenarios dev 2\nA. moral_scenarios 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_scenarios dev 3\nA. moral_scenarios 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_scenarios dev 4\nA. moral_scenarios 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral scenarios statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about moral scenarios.\n\nmoral_scenarios dev 0\nA. moral_scenarios 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nmoral_scenarios dev 1\nA. moral_scenarios 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nmoral_scenarios dev 2\nA. moral_scenarios 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nmoral_scenarios dev 3\nA. moral_scenarios 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nmoral_scenarios dev 4\nA. moral_scenarios 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich moral scenarios statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_nutrition: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about nutrition.\n\nnutrition dev 0\nA. nutrition 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nnutrition dev 1\nA. nutrition 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nnutrition dev 2\nA. nutrition 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nnutrition dev 3\nA. nutrition 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nnutrition dev 4\nA. nutrition 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich nutrition statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about nutrition.\n\nnutrition dev 0\nA. nutrition 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nnutrition dev 1\nA. nutrition 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nnutrition dev 2\nA. nutrition 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nnutrition dev 3\nA. nutrition 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nnutrition dev 4\nA. nutrition 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich nutrition statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about nutrition.\n\nnutrition dev 0\nA. nutrition 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nnutrition dev 1\nA. nutrition 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nnutrition dev 2\nA. nutrition 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nnutrition dev 3\nA. nutrition 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nnutrition dev 4\nA. nutrition 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich nutrition statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about nutrition.\n\nnutrition dev 0\nA. nutrition 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nnutrition dev 1\nA. nutrition 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nnutrition dev 2\nA. nutrition 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nnutrition dev 3\nA. nutrition 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nnutrition dev 4\nA. nutrition 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich nutrition statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_philosophy: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about philosophy.\n\nphilosophy dev 0\nA. philosophy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nphilosophy dev 1\nA. philosophy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nphilosophy dev 2\nA. philosophy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nphilosophy dev 3\nA. philosophy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nphilosophy dev 4\nA. philosophy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich philosophy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about philosophy.\n\nphilosophy dev 0\nA. philosophy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nphilosophy dev 1\nA. philosophy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nphilosophy dev 2\nA. philosophy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nphilosophy dev 3\nA. philosophy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nphilosophy dev 4\nA. philosophy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich philosophy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about philosophy.\n\nphilosophy dev 0\nA. philosophy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nphilosophy dev 1\nA. philosophy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nphilosophy dev 2\nA. philosophy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nphilosophy dev 3\nA. philosophy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nphilosophy dev 4\nA. philosophy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich philosophy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about philosophy.\n\nphilosophy dev 0\nA. philosophy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nphilosophy dev 1\nA. philosophy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nphilosophy dev 2\nA. philosophy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nphilosophy dev 3\nA. philosophy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nphilosophy dev 4\nA. philosophy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich philosophy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_prehistory: {
    num_fewshot: 5,
    docs: [
      {
        target: 2,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about prehistory.\n\nprehistory dev 0\nA. prehistory 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprehistory dev 1\nA. prehistory 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprehistory dev 2\nA. prehistory 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprehistory dev 3\nA. prehistory 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprehistory dev 4\nA. prehistory 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich prehistory statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about prehistory.\n\nprehistory dev 0\nA. prehistory 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprehistory dev 1\nA. prehistory 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprehistory dev 2\nA. prehistory 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprehistory dev 3\nA. prehistory 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprehistory dev 4\nA. prehistory 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich prehistory statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about prehistory.\n\nprehistory dev 0\nA. prehistory 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprehistory dev 1\nA. prehistory 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprehistory dev 2\nA. prehistory 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprehistory dev 3\nA. prehistory 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprehistory dev 4\nA. prehistory 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich prehistory statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about prehistory.\n\nprehistory dev 0\nA. prehistory 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprehistory dev 1\nA. prehistory 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprehistory dev 2\nA. prehistory 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprehistory dev 3\nA. prehistory 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprehistory dev 4\nA. prehistory 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich prehistory statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_professional_accounting: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional accounting.\n\nprofessional_accounting dev 0\nA. professional_accounting 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_accounting dev 1\nA. professional_accounting 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_accounting dev 2\nA. professional_accounting 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_accounting dev 3\nA. professional_accounting 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_accounting dev 4\nA. professional_accounting 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional accounting statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional accounting.\n\nprofessional_accounting dev 0\nA. professional_accounting 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_accounting dev 1\nA. professional_accounting 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_accounting dev 2\nA. professional_accounting 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_accounting dev 3\nA. professional_accounting 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_accounting dev 4\nA. professional_accounting 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional accounting statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional accounting.\n\nprofessional_accounting dev 0\nA. professional_accounting 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_accounting dev 1\nA. professional_accounting 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_accounting dev 2\nA. professional_accounting 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_accounting dev 3\nA. professional_accounting 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_accounting dev 4\nA. professional_accounting 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional accounting statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional accounting.\n\nprofessional_accounting dev 0\nA. professional_accounting 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_accounting dev 1\nA. professional_accounting 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_accounting dev 2\nA. professional_accounting 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_accounting dev 3\nA. professional_accounting 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_accounting dev 4\nA. professional_accounting 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional accounting statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_professional_law: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional law.\n\nprofessional_law dev 0\nA. professional_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_law dev 1\nA. professional_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_law dev 2\nA. professional_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_law dev 3\nA. professional_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_law dev 4\nA. professional_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional law.\n\nprofessional_law dev 0\nA. professional_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_law dev 1\nA. professional_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_law dev 2\nA. professional_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_law dev 3\nA. professional_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_law dev 4\nA. professional_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional law.\n\nprofessional_law dev 0\nA. professional_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_law dev 1\nA. professional_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_law dev 2\nA. professional_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_law dev 3\nA. professional_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_law dev 4\nA. professional_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional law.\n\nprofessional_law dev 0\nA. professional_law 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_law dev 1\nA. professional_law 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_law dev 2\nA. professional_law 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_law dev 3\nA. professional_law 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_law dev 4\nA. professional_law 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional law statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_professional_medicine: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional medicine.\n\nprofessional_medicine dev 0\nA. professional_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_medicine dev 1\nA. professional_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_medicine dev 2\nA. professional_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_medicine dev 3\nA. professional_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_medicine dev 4\nA. professional_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional medicine.\n\nprofessional_medicine dev 0\nA. professional_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_medicine dev 1\nA. professional_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_medicine dev 2\nA. professional_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_medicine dev 3\nA. professional_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_medicine dev 4\nA. professional_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional medicine.\n\nprofessional_medicine dev 0\nA. professional_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_medicine dev 1\nA. professional_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_medicine dev 2\nA. professional_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_medicine dev 3\nA. professional_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_medicine dev 4\nA. professional_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional medicine.\n\nprofessional_medicine dev 0\nA. professional_medicine 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_medicine dev 1\nA. professional_medicine 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_medicine dev 2\nA. professional_medicine 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_medicine dev 3\nA. professional_medicine 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_medicine dev 4\nA. professional_medicine 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional medicine statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_professional_psychology: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional psychology.\n\nprofessional_psychology dev 0\nA. professional_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_psychology dev 1\nA. professional_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_psychology dev 2\nA. professional_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_psychology dev 3\nA. professional_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_psychology dev 4\nA. professional_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional psychology.\n\nprofessional_psychology dev 0\nA. professional_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_psychology dev 1\nA. professional_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_psychology dev 2\nA. professional_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_psychology dev 3\nA. professional_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_psychology dev 4\nA. professional_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional psychology.\n\nprofessional_psychology dev 0\nA. professional_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_psychology dev 1\nA. professional_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_psychology dev 2\nA. professional_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_psychology dev 3\nA. professional_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_psychology dev 4\nA. professional_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about professional psychology.\n\nprofessional_psychology dev 0\nA. professional_psychology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nprofessional_psychology dev 1\nA. professional_psychology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nprofessional_psychology dev 2\nA. professional_psychology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nprofessional_psychology dev 3\nA. professional_psychology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nprofessional_psychology dev 4\nA. professional_psychology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich professional psychology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_public_relations: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about public relations.\n\npublic_relations dev 0\nA. public_relations 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\npublic_relations dev 1\nA. public_relations 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\npublic_relations dev 2\nA. public_relations 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\npublic_relations dev 3\nA. public_relations 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\npublic_relations dev 4\nA. public_relations 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich public relations statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about public relations.\n\npublic_relations dev 0\nA. public_relations 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\npublic_relations dev 1\nA. public_relations 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\npublic_relations dev 2\nA. public_relations 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\npublic_relations dev 3\nA. public_relations 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\npublic_relations dev 4\nA. public_relations 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich public relations statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about public relations.\n\npublic_relations dev 0\nA. public_relations 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\npublic_relations dev 1\nA. public_relations 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\npublic_relations dev 2\nA. public_relations 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\npublic_relations dev 3\nA. public_relations 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\npublic_relations dev 4\nA. public_relations 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich public relations statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about public relations.\n\npublic_relations dev 0\nA. public_relations 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\npublic_relations dev 1\nA. public_relations 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\npublic_relations dev 2\nA. public_relations 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\npublic_relations dev 3\nA. public_relations 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\npublic_relations dev 4\nA. public_relations 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich public relations statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_security_studies: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about security studies.\n\nsecurity_studies dev 0\nA. security_studies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsecurity_studies dev 1\nA. security_studies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsecurity_studies dev 2\nA. security_studies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsecurity_studies dev 3\nA. security_studies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsecurity_studies dev 4\nA. security_studies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich security studies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about security studies.\n\nsecurity_studies dev 0\nA. security_studies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsecurity_studies dev 1\nA. security_studies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsecurity_studies dev 2\nA. security_studies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsecurity_studies dev 3\nA. security_studies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsecurity_studies dev 4\nA. security_studies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich security studies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about security studies.\n\nsecurity_studies dev 0\nA. security_studies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsecurity_studies dev 1\nA. security_studies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsecurity_studies dev 2\nA. security_studies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsecurity_studies dev 3\nA. security_studies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsecurity_studies dev 4\nA. security_studies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich security studies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about security studies.\n\nsecurity_studies dev 0\nA. security_studies 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsecurity_studies dev 1\nA. security_studies 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsecurity_studies dev 2\nA. security_studies 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsecurity_studies dev 3\nA. security_studies 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsecurity_studies dev 4\nA. security_studies 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich security studies statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_sociology: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about sociology.\n\nsociology dev 0\nA. sociology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsociology dev 1\nA. sociology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsociology dev 2\nA. sociology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsociology dev 3\nA. sociology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsociology dev 4\nA. sociology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich sociology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about sociology.\n\nsociology dev 0\nA. sociology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsociology dev 1\nA. sociology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsociology dev 2\nA. sociology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsociology dev 3\nA. sociology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsociology dev 4\nA. sociology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich sociology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about sociology.\n\nsociology dev 0\nA. sociology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsociology dev 1\nA. sociology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsociology dev 2\nA. sociology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsociology dev 3\nA. sociology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsociology dev 4\nA. sociology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich sociology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about sociology.\n\nsociology dev 0\nA. sociology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nsociology dev 1\nA. sociology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nsociology dev 2\nA. sociology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nsociology dev 3\nA. sociology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nsociology dev 4\nA. sociology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich sociology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_us_foreign_policy: {
    num_fewshot: 5,
    docs: [
      {
        target: 1,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about us foreign policy.\n\nus_foreign_policy dev 0\nA. us_foreign_policy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nus_foreign_policy dev 1\nA. us_foreign_policy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nus_foreign_policy dev 2\nA. us_foreign_policy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nus_foreign_policy dev 3\nA. us_foreign_policy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nus_foreign_policy dev 4\nA. us_foreign_policy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich us foreign policy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about us foreign policy.\n\nus_foreign_policy dev 0\nA. us_foreign_policy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nus_foreign_policy dev 1\nA. us_foreign_policy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nus_foreign_policy dev 2\nA. us_foreign_policy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nus_foreign_policy dev 3\nA. us_foreign_policy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nus_foreign_policy dev 4\nA. us_foreign_policy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich us foreign policy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about us foreign policy.\n\nus_foreign_policy dev 0\nA. us_foreign_policy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nus_foreign_policy dev 1\nA. us_foreign_policy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nus_foreign_policy dev 2\nA. us_foreign_policy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nus_foreign_policy dev 3\nA. us_foreign_policy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nus_foreign_policy dev 4\nA. us_foreign_policy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich us foreign policy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about us foreign policy.\n\nus_foreign_policy dev 0\nA. us_foreign_policy 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nus_foreign_policy dev 1\nA. us_foreign_policy 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nus_foreign_policy dev 2\nA. us_foreign_policy 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nus_foreign_policy dev 3\nA. us_foreign_policy 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nus_foreign_policy dev 4\nA. us_foreign_policy 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich us foreign policy statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_virology: {
    num_fewshot: 5,
    docs: [
      {
        target: 0,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about virology.\n\nvirology dev 0\nA. virology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nvirology dev 1\nA. virology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nvirology dev 2\nA. virology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nvirology dev 3\nA. virology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nvirology dev 4\nA. virology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich virology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about virology.\n\nvirology dev 0\nA. virology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nvirology dev 1\nA. virology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nvirology dev 2\nA. virology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nvirology dev 3\nA. virology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nvirology dev 4\nA. virology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich virology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about virology.\n\nvirology dev 0\nA. virology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nvirology dev 1\nA. virology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nvirology dev 2\nA. virology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nvirology dev 3\nA. virology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nvirology dev 4\nA. virology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich virology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about virology.\n\nvirology dev 0\nA. virology 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nvirology dev 1\nA. virology 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nvirology dev 2\nA. virology 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nvirology dev 3\nA. virology 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nvirology dev 4\nA. virology 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich virology statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' D',
          },
        ],
      },
    ],
  },
  mmlu_world_religions: {
    num_fewshot: 5,
    docs: [
      {
        target: 3,
        requests: [
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about world religions.\n\nworld_religions dev 0\nA. world_religions 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nworld_religions dev 1\nA. world_religions 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nworld_religions dev 2\nA. world_religions 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nworld_religions dev 3\nA. world_religions 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nworld_religions dev 4\nA. world_religions 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich world religions statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' A',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about world religions.\n\nworld_religions dev 0\nA. world_religions 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nworld_religions dev 1\nA. world_religions 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nworld_religions dev 2\nA. world_religions 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nworld_religions dev 3\nA. world_religions 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nworld_religions dev 4\nA. world_religions 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich world religions statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' B',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about world religions.\n\nworld_religions dev 0\nA. world_religions 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nworld_religions dev 1\nA. world_religions 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nworld_religions dev 2\nA. world_religions 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nworld_religions dev 3\nA. world_religions 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nworld_religions dev 4\nA. world_religions 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich world religions statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
            continuation: ' C',
          },
          {
            type: 'loglikelihood',
            context:
              'The following are multiple choice questions (with answers) about world religions.\n\nworld_religions dev 0\nA. world_religions 0a\nB. 0b\nC. 0c\nD. 0d\nAnswer: A\n\nworld_religions dev 1\nA. world_religions 1a\nB. 1b\nC. 1c\nD. 1d\nAnswer: B\n\nworld_religions dev 2\nA. world_religions 2a\nB. 2b\nC. 2c\nD. 2d\nAnswer: C\n\nworld_religions dev 3\nA. world_religions 3a\nB. 3b\nC. 3c\nD. 3d\nAnswer: D\n\nworld_religions dev 4\nA. world_religions 4a\nB. 4b\nC. 4c\nD. 4d\nAnswer: A\n\nWhich world religions statement is true?\nA. first\nB. second\'s\nC. "third"\nD. fourth\\\nAnswer:',
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
