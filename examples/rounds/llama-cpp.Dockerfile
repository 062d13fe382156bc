# llama.cpp's server built from a checkout, with the source and the build tree kept in the image: the
# candidate's overlay applies a pull request's diff in /src/llama.cpp, in place, and candidate.postPatch
# rebuilds only what the diff touched (one changed file and the link: about a minute), not the whole tree.
# BASE and CMAKE_ARGS choose the backend: the CPU round leaves them as they are, the CUDA round
# (llama-cpp-cuda.yaml) gives a CUDA devel image and -DGGML_CUDA=ON.
# speedgate labels the image it builds with the checkout's commit (org.opencontainers.image.revision), which
# base/head rounds read; an image built by other means needs --label org.opencontainers.image.revision=<sha>.
ARG BASE=ubuntu:24.04
FROM ${BASE}
ARG CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends build-essential cmake git patch libgomp1 \
 && rm -rf /var/lib/apt/lists/*
COPY . /src/llama.cpp
WORKDIR /src/llama.cpp
RUN cmake -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF \
      -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF ${CMAKE_ARGS} \
 && cmake --build build --target llama-server -j"$(nproc)"
ENV PATH=/src/llama.cpp/build/bin:$PATH
