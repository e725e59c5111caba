{
  "targets": [
    {
      "target_name": "assay_softmax",
      "type": "static_library",
      "sources": ["softmax.cc"],
      "cflags": ["-fPIC"],
      "cflags_cc": ["-O3", "-std=c++17", "-ffast-math"]
    },
    {
      "target_name": "assay_scorer",
      "dependencies": ["assay_softmax"],
      "sources": ["scorer.cc"],
      "include_dirs": ["<(llama_include)"],
      "cflags_cc": ["-O3", "-std=c++17"],
      "libraries": [
        "-L<(llama_bins)",
        "-l:<(llama_lib)",
        "-l:<(ggml_lib)",
        "-l:libggml-base.so",
        "-Wl,-rpath,<(llama_bins)"
      ]
    }
  ]
}
