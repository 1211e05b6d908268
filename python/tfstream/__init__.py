"""tfstream: read the tensor payloads (``tfstream.v1.TensorBatch``) of the tfstream job.

``tfstream.payloads`` decodes payloads into numpy arrays, reads TFRecord files of payloads and
puts split batches and windows back together; ``tfstream.kafka`` consumes a payload topic with
``read_committed``; ``tfstream.tf`` turns batches into TensorFlow tensors and datasets; ``tfstream.shards`` lists the
finished shards of a shard directory by their ``_SUCCESS`` markers; ``tfstream.stats`` reads TFDV's
statistics of the job's windows from its statistics topic.
Decoding needs only numpy and protobuf.
"""

__version__ = "0.1.0"
