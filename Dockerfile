# backscope: build the frontend with Node, run the app on Python with Debian's bubblewrap.
# Run with the shipped seccomp profile so bwrap can make its namespaces:
#   docker run -p 8000:8000 -v backscope-data:/data \
#     --security-opt seccomp=deploy/seccomp-bwrap.json backscope

FROM node:20-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 backscope \
 && mkdir -p /data \
 && chown backscope /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine/ engine/
COPY server/ server/
COPY protocol/ protocol/
RUN pip install --no-cache-dir . \
 && rm -rf /root/.cache
COPY examples/ examples/
COPY --from=frontend /src/frontend/dist frontend/dist
ENV BACKSCOPE_DB_PATH=/data/runs.sqlite3 \
    BACKSCOPE_EXAMPLES_DIR=/app/examples \
    BACKSCOPE_FRONTEND_DIST=/app/frontend/dist \
    PYTHONDONTWRITEBYTECODE=1
VOLUME /data
USER 10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["backscope", "serve", "--host", "0.0.0.0", "--port", "8000"]
